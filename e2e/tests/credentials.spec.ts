import { endpoints } from "@keyhold/contract";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "../support/fixtures.ts";

const serviceUrl = () => process.env.KEYHOLD_E2E_SERVICE_URL ?? "";

function methodRow(page: Page, label: string): Locator {
  return page
    .getByRole("region", { name: "Auth methods" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: label, exact: true }) });
}

test("a token created in the console is listed, renamed and revoked, and then refused", async ({
  signedIn: page,
  service,
  seededIdentity,
}) => {
  const identityId = seededIdentity.identity.id;
  await service(endpoints["tokenAuth.attach"], { params: { identityId }, body: {} });
  await page.goto(`/identities/${identityId}`);
  const tokens = page.getByRole("region", { name: "Access tokens" });
  await expect(tokens).toContainText("No tokens yet");

  await methodRow(page, "Token auth").getByRole("button", { name: "Create token" }).click();
  const dialog = page.getByRole("dialog", { name: "Create access token" });
  await dialog.getByLabel("Name (optional)").fill("deploy-bot");
  await dialog.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByRole("dialog", { name: "Access token created" });
  const token = (await shown.getByLabel("New access token").textContent()) ?? "";
  await shown.getByRole("button", { name: "Done" }).click();

  const row = tokens.getByRole("row").filter({ hasText: "deploy-bot" });
  await expect(row).toContainText("Active");
  await row.getByRole("button", { name: "Rename deploy-bot" }).click();
  const rename = page.getByRole("dialog", { name: "Rename access token" });
  await rename.getByLabel("Name").fill("release-bot");
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(rename).toBeHidden();
  const renamed = tokens.getByRole("row").filter({ hasText: "release-bot" });
  await expect(renamed).toBeVisible();

  const whoAmI = () =>
    fetch(`${serviceUrl()}/api/v1/identities/${identityId}`, { headers: { Authorization: `Bearer ${token}` } });
  expect((await whoAmI()).status).toBe(200);

  await renamed.getByRole("button", { name: "Revoke release-bot" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke token" }).click();
  await expect(renamed).toContainText("Revoked");
  expect((await whoAmI()).status).toBe(401);
});

test("a client secret created in the console signs in until it is revoked", async ({
  signedIn: page,
  service,
  seededIdentity,
}) => {
  const identityId = seededIdentity.identity.id;
  const { identityUniversalAuth } = await service(endpoints["universalAuth.attach"], {
    params: { identityId },
    body: {},
  });
  await page.goto(`/identities/${identityId}`);
  const secrets = page.getByRole("region", { name: "Client secrets" });
  await expect(secrets).toContainText("No client secrets");

  await secrets.getByRole("button", { name: "Create client secret" }).click();
  const dialog = page.getByRole("dialog", { name: "Create client secret" });
  await dialog.getByLabel("Description (optional)").fill("ci runner");
  await dialog.getByLabel("TTL").fill("30d");
  await dialog.getByLabel("Uses limit").fill("10");
  await dialog.getByRole("button", { name: "Create secret" }).click();
  const shown = page.getByRole("dialog", { name: "Client secret created" });
  await expect(shown).toContainText("It will not be shown again");
  const clientSecret = (await shown.getByLabel("New client secret").textContent()) ?? "";
  await shown.getByRole("button", { name: "Done" }).click();

  const row = secrets.getByRole("row").filter({ hasText: "ci runner" });
  await expect(row).toContainText(`${clientSecret.slice(0, 4)}…`);
  await expect(row).toContainText("0 / 10");

  const login = () =>
    fetch(`${serviceUrl()}/api/v1/auth/universal-auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ clientId: identityUniversalAuth.clientId, clientSecret }),
    });
  expect((await login()).status).toBe(200);

  await page.reload();
  await expect(row).toContainText("1 / 10");
  await row.getByRole("button", { name: "Revoke ci runner" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke secret" }).click();
  await expect(secrets).toContainText("No client secrets");
  expect((await login()).status).toBe(401);
});
