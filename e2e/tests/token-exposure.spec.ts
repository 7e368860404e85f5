import { expect, test } from "../support/fixtures.ts";

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
