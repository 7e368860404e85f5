import { expect, test } from "../support/fixtures.ts";
import { PROVIDER_NAME, signInAtProvider, test as ssoTest } from "../support/sso-stack.ts";

/** Everything the page's own JavaScript could read after the walk, joined. */
async function readableByScript(page: import("@playwright/test").Page): Promise<string> {
  return page.evaluate(async () => {
    const parts = [document.cookie, document.documentElement.outerHTML, location.href];
    for (const store of [localStorage, sessionStorage]) {
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i) ?? "";
        parts.push(key, store.getItem(key) ?? "");
      }
    }
    const databases = (await indexedDB.databases?.()) ?? [];
    parts.push(JSON.stringify(databases));
    return parts.join("\n");
  });
}

test("the admin token is nowhere the page's JavaScript can read", async ({ page, adminToken, context }) => {
  const seen: string[] = [];
  page.on("response", async (response) => {
    seen.push(JSON.stringify(response.headers()));
    const type = response.headers()["content-type"] ?? "";
    if (/json|text|javascript|html/.test(type)) seen.push(await response.text().catch(() => ""));
  });

  await page.goto("/sign-in");
  await page.getByLabel("Access token").fill(adminToken);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
  await page.getByRole("link", { name: "admin", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "admin" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "admin" })).toBeVisible();

  const readable = await readableByScript(page);
  expect(readable.includes(adminToken)).toBe(false);
  expect(seen.length).toBeGreaterThan(3);
  expect(seen.filter((text) => text.includes(adminToken))).toEqual([]);

  // The only cookie is the session cookie, invisible to scripts.
  const cookies = await context.cookies();
  expect(cookies).toHaveLength(1);
  expect(cookies[0]).toMatchObject({ httpOnly: true, secure: true, sameSite: "Strict", path: "/" });
  expect(cookies[0]?.name.startsWith("__Host-")).toBe(true);
  expect(cookies[0]?.value.includes(adminToken)).toBe(false);
});

/** Anything shaped like a JWT (an ID token, or an access token of the service). */
const JWT = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}/;

ssoTest(
  "single sign-on: the page never sees the ID token, the refresh token or an access token",
  async ({ page, context, sso, person }) => {
    const seen: string[] = [];
    page.on("response", async (response) => {
      seen.push(response.url(), JSON.stringify(response.headers()));
      const type = response.headers()["content-type"] ?? "";
      if (/json|text|javascript|html/.test(type)) seen.push(await response.text().catch(() => ""));
    });
    const issuedBefore = sso.provider.issuedTokens.length;
    const refreshed = () => sso.provider.tokenRequests.filter((r) => r.grantType === "refresh_token").length;
    const refreshedBefore = refreshed();

    // The short-lived identity's tokens are renewed within the walk: the rotated tokens count too.
    const dave = person(["short-lived"]);
    await page.goto(sso.url("/identities"));
    await page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` }).click();
    await signInAtProvider(page, dave);
    await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole("button", { name: `Account: ${dave.email}` })).toBeVisible({ timeout: 1000 });
      expect(refreshed()).toBeGreaterThan(refreshedBefore);
    }).toPass({ timeout: 20_000 });
    await page.getByRole("link", { name: sso.identities.shortLived.name, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: sso.identities.shortLived.name })).toBeVisible();

    // What the provider issued to the BFF: an ID token, an access token and a refresh token at
    // sign-in, and again at each renewal.
    const issued = sso.provider.issuedTokens.slice(issuedBefore);
    expect(issued.length).toBeGreaterThanOrEqual(6);
    const readable = await readableByScript(page);
    for (const token of issued) {
      expect(readable.includes(token), "a token the provider issued, readable by the page").toBe(false);
      expect(seen.filter((text) => text.includes(token))).toEqual([]);
    }
    // Nor any other token shaped like a JWT: the service's access token is one.
    expect(readable).not.toMatch(JWT);
    expect(seen.filter((text) => JWT.test(text))).toEqual([]);

    // The only cookie of the console is the session cookie, invisible to scripts; the sign-in's
    // own cookie was spent at the callback.
    const cookies = await context.cookies(sso.origin);
    expect(cookies.map((c) => c.name)).toEqual(["__Host-keyhold"]);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
  },
);
