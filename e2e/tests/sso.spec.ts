import { buildPath, endpoints, type Project } from "@keyhold/contract";
import { ignoreNotFound } from "../support/api.ts";
import { csrf, uniqueName } from "../support/fixtures.ts";
import { expect, PROVIDER_NAME, signInAtProvider, test } from "../support/sso-stack.ts";

/**
 * Single sign-on through a real OpenID provider on loopback, with its own login page, in front of
 * a BFF configured for it (support/sso-stack.ts): people sign in as themselves, are named in the
 * header and the audit log, are refused by the identity's bound claims, stay signed in by refresh
 * token until the provider drops them, and sign out of the provider too.
 */

test("a person signs in at the provider's page, lands in the console and is named in the header", async ({
  page,
  sso,
  person,
}) => {
  const eve = person(["platform"]);
  await page.goto(sso.url("/projects"));
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to Keyhold" })).toBeVisible();
  await page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` }).click();
  await signInAtProvider(page, eve);

  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/projects");
  const account = page.getByRole("button", { name: `Account: ${eve.email}` });
  await expect(account).toBeVisible();
  await expect(account).toContainText(`as ${sso.identities.platform.name}`);
  await account.click();
  await expect(page.getByRole("menu")).toContainText(`Signed in with ${PROVIDER_NAME}`);
  await expect(page.getByRole("menu")).toContainText(sso.identities.platform.name);
});

test("a change the person makes is recorded with their e-mail, and the audit log shows it", async ({
  page,
  sso,
  person,
}) => {
  const eve = person(["platform"]);
  await page.goto(sso.url("/sign-in"));
  await page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` }).click();
  await signInAtProvider(page, eve);
  await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();

  // The change, through the console's BFF with the person's session.
  const created = await page.request.post(sso.url(buildPath(endpoints["projects.create"].path, {})), {
    headers: csrf,
    data: { projectName: uniqueName("e2e-sso-project"), shouldCreateDefaultEnvs: false },
  });
  expect(created.status()).toBe(200);
  const project = ((await created.json()) as { project: Project }).project;
  try {
    const table = page.getByRole("table", { name: "Audit events" });
    const row = table.getByRole("row", { name: /^Create project by / });
    // The service stores events from a queue: read the log again until the event is there.
    await expect(async () => {
      await page.goto(sso.url(`/audit-log?range=1h&projectId=${project.id}`));
      await expect(row).toHaveCount(1, { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(row).toContainText(eve.email);
    await row.click();
    await expect(page.getByRole("dialog")).toContainText(eve.email);
  } finally {
    // The person's identity created it, and is its only member.
    const path = buildPath(endpoints["projects.delete"].path, { workspaceId: project.id });
    expect((await page.request.delete(sso.url(path), { headers: csrf })).status()).toBe(200);
  }
});

test("a person outside the identity's bound claims is refused, with the provider's and the rule's names", async ({
  page,
  sso,
  person,
}) => {
  const mallory = person(["contractors"]);
  await page.goto(sso.url("/sign-in"));
  await page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` }).click();
  await signInAtProvider(page, mallory);

  await expect(page).toHaveURL(/\/sign-in\?sso=failed$/);
  const alert = page.getByRole("alert");
  await expect(alert).toContainText(
    `${PROVIDER_NAME} signed you in as ${mallory.email}, but the secrets service refused the identity of rule "platform"`,
  );
  expect((await page.request.get(sso.url("/bff/session"), { headers: csrf })).status()).toBe(401);
  // Told once: a reload does not repeat it.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to Keyhold" })).toBeVisible();
  await expect(page.getByText(mallory.email)).toHaveCount(0);
});

test("renewal by refresh token keeps a person signed in, until the provider disables them", async ({
  page,
  sso,
  person,
}) => {
  const dave = person(["short-lived"]);
  await page.goto(sso.url("/identities"));
  await page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` }).click();
  await signInAtProvider(page, dave);
  await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
  await expect(page.getByRole("button", { name: `Account: ${dave.email}` })).toBeVisible();

  const refreshes = (ok: boolean) =>
    sso.provider.tokenRequests.filter((r) => r.grantType === "refresh_token" && (r.status === 200) === ok).length;
  const renewedBefore = refreshes(true);
  // The identity's tokens live 6 seconds: requests once two thirds have passed renew them.
  await expect
    .poll(
      async () => {
        const session = await page.request.get(sso.url("/bff/session"), { headers: csrf });
        expect(session.status()).toBe(200);
        return refreshes(true);
      },
      { timeout: 20_000, intervals: [500] },
    )
    .toBeGreaterThan(renewedBefore);
  await page.reload();
  await expect(page.getByRole("button", { name: `Account: ${dave.email}` })).toBeVisible();

  // Removed at the provider: the next renewal is refused, and that request ends the session.
  const user = sso.provider.users.get(dave.email);
  if (!user) throw new Error("the person is not at the provider");
  user.disabled = true;
  const refusedBefore = refreshes(false);
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Sign in to Keyhold" })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  expect(refreshes(false)).toBeGreaterThan(refusedBefore);
  expect((await page.request.get(sso.url("/bff/session"), { headers: csrf })).status()).toBe(401);
});

test("signing out ends the provider's session too", async ({ page, sso, person }) => {
  const eve = person(["platform"]);
  await page.goto(sso.url("/sign-in"));
  await page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` }).click();
  await signInAtProvider(page, eve);
  await page.getByRole("button", { name: `Account: ${eve.email}` }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();

  // The provider asks (its own page), then sends the browser back to the console's sign-in page.
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to Keyhold" })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(sso.origin);
  expect((await page.request.get(sso.url("/bff/session"), { headers: csrf })).status()).toBe(401);

  // Signing in again asks for the password again: the provider's session ended as well.
  await page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` }).click();
  await expect(page).toHaveTitle("Acme ID: sign in");
});

test("an admin sets up an identity on the set-up page and runs a test sign-in in a new window", async ({
  page,
  sso,
  person,
  adminToken,
  service,
}) => {
  const login = await page.request.post(sso.url("/bff/login"), { headers: csrf, data: { accessToken: adminToken } });
  expect(login.status()).toBe(200);
  await page.goto(sso.url("/settings"));
  await page.getByRole("link", { name: /Single sign-on/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Single sign-on" })).toBeVisible();
  await expect(page.getByText(sso.url("/bff/oidc/callback"))).toBeVisible();

  const step = page.getByRole("region", { name: "Choose the identity people sign in as" });
  const name = uniqueName("e2e-sso-setup");
  await step.getByLabel("Name").fill(name);
  await step.getByLabel("Bound claim (optional)").fill("groups");
  await step.getByLabel("Allowed values").fill("platform");
  await step.getByRole("button", { name: "Create identity with OIDC auth" }).click();
  await expect(step.getByRole("status")).toContainText(`${name} has OIDC auth for ${PROVIDER_NAME}.`);
  const line = await page.getByLabel("Identity configuration", { exact: true }).textContent();
  const identityId = /KEYHOLD_OIDC_IDENTITY_ID=([0-9a-f-]{36})/.exec(line ?? "")?.[1];
  expect(identityId).toBeTruthy();

  try {
    const eve = person(["platform"]);
    const test = page.getByRole("region", { name: "Test a sign-in" });
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      test.getByRole("button", { name: "Test sign-in" }).click(),
    ]);
    await signInAtProvider(popup, eve);
    await expect(popup.getByRole("heading", { level: 1, name: "Single sign-on test" })).toBeVisible();
    await expect(popup.getByRole("status")).toContainText("Test sign-in passed");
    await expect(popup.getByRole("status")).toContainText(eve.email);
    await expect(popup.getByRole("status")).toContainText(`accepted them as the identity ${name}.`);
    // The set-up page learns the outcome on its own.
    await expect(test.getByRole("status")).toContainText("Test sign-in passed");
    await expect(test.getByRole("status")).toContainText(eve.email);
    // A test signs nobody in: the admin's own session is the one this browser holds.
    const session = await page.request.get(sso.url("/bff/session"), { headers: csrf });
    expect(((await session.json()) as { person?: unknown }).person).toBeUndefined();
  } finally {
    if (identityId) {
      await ignoreNotFound(service(endpoints["identities.delete"], { params: { identityId } }));
    }
  }
});
