import { CSRF_HEADER, CSRF_VALUE, endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";

test("signs in with the admin token and lands on the identities list", async ({ page, adminToken }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel("Access token").fill(adminToken);
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
  await expect(page.getByRole("link", { name: "admin", exact: true })).toBeVisible();
});

test("explains a refused token and stays on the sign-in page", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Access token").fill("not-a-real-token");
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page.getByRole("alert")).toContainText(/not accepted|invalid|refused/i);
  await expect(page).toHaveURL(/\/sign-in/);
});

test("returns to the deep link after signing in", async ({ page, adminToken, seededIdentity }) => {
  await page.goto(`/identities/${seededIdentity.identity.id}`);
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel("Access token").fill(adminToken);
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page.getByRole("heading", { level: 1, name: seededIdentity.identity.name })).toBeVisible();
});

test("after signing out the API refuses the old session cookie", async ({ signedIn: page, session, playwright }) => {
  await page.goto("/identities");
  await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
  // Keep a copy of the cookie, as a thief would, before signing out.
  const [cookie] = await page.context().cookies();
  expect(cookie?.name).toMatch(/^__Host-/);

  await page.getByRole("button", { name: "Account: admin" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  const replay = await playwright.request.newContext({ baseURL: process.env.KEYHOLD_E2E_BASE_URL });
  try {
    const response = await replay.get(`/api/v1/identities?orgId=${session.organization.id}`, {
      headers: { [CSRF_HEADER]: CSRF_VALUE, cookie: `${cookie?.name}=${cookie?.value}` },
    });
    expect(response.status()).toBe(401);
    expect((await response.json()).statusCode).toBe(401);
  } finally {
    await replay.dispose();
  }
});

test("says why a valid token without the rights to use the console cannot sign in", async ({
  page,
  service,
  session,
}) => {
  const { identity } = await service(endpoints["identities.create"], {
    body: { name: uniqueName("no-access"), organizationId: session.organization.id, role: "no-access" },
  });
  try {
    await service(endpoints["tokenAuth.attach"], { params: { identityId: identity.id }, body: {} });
    const { accessToken } = await service(endpoints["tokenAuth.createToken"], {
      params: { identityId: identity.id },
      body: {},
    });

    await page.goto("/sign-in");
    await page.getByLabel("Access token").fill(accessToken);
    await page.getByRole("button", { name: "Sign in" }).click();

    await expect(page.getByRole("alert")).toContainText("member or admin organization role");
    await expect(page).toHaveURL(/\/sign-in/);
  } finally {
    await service(endpoints["identities.delete"], { params: { identityId: identity.id } });
  }
});

test("signs in with a universal-auth client ID and secret and lands on the identities list", async ({
  page,
  service,
  session,
}) => {
  const { identity } = await service(endpoints["identities.create"], {
    body: { name: uniqueName("ua-sign-in"), organizationId: session.organization.id, role: "member" },
  });
  try {
    const { identityUniversalAuth } = await service(endpoints["universalAuth.attach"], {
      params: { identityId: identity.id },
      body: {},
    });
    const { clientSecret } = await service(endpoints["universalAuth.createClientSecret"], {
      params: { identityId: identity.id },
      body: { description: "console sign-in" },
    });

    await page.goto("/sign-in");
    await page.getByRole("radio", { name: "Universal auth" }).check();
    await page.getByLabel("Client ID").fill(identityUniversalAuth.clientId);
    await page.getByLabel("Client secret").fill(clientSecret);
    await page.getByRole("button", { name: "Sign in" }).click();

    await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
    await expect(page.getByRole("button", { name: `Account: ${identity.name}` })).toBeVisible();
    await expect(page).not.toHaveURL(new RegExp(clientSecret));
  } finally {
    await service(endpoints["identities.delete"], { params: { identityId: identity.id } });
  }
});

test("requires both the client ID and the secret before sending anything", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByRole("radio", { name: "Universal auth" }).check();
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page.getByText("Client ID is required")).toBeVisible();
  await expect(page.getByText("Client secret is required")).toBeVisible();
  await expect(page.getByLabel("Client ID")).toBeFocused();
});
