import { endpoints } from "@keyhold/contract";
import { expect, test } from "../support/fixtures.ts";
import { methodRow } from "../support/identities.ts";

test("shows a form error from the server and keeps the dialog open", async ({ signedIn: page, seededIdentity }) => {
  await page.goto(`/identities/${seededIdentity.identity.id}`);
  await methodRow(page, "Token auth").getByRole("button", { name: "Attach Token auth" }).click();
  const dialog = page.getByRole("dialog", { name: "Attach Token auth" });
  await dialog.getByLabel("Access token TTL", { exact: true }).fill("60d");
  await dialog.getByRole("button", { name: "Attach Token auth" }).click();
  await expect(dialog.getByText("Cannot exceed the access token max TTL (30 days)")).toBeVisible();
  await dialog.getByLabel("Access token trusted IPs, row 1").fill("10.0.0.300");
  await expect(dialog.getByText(/Enter an IPv4 or IPv6 address/)).toBeVisible();
});

test("a token created in the console works until token auth is revoked", async ({
  signedIn: page,
  service,
  seededIdentity,
}) => {
  const identityId = seededIdentity.identity.id;
  await service(endpoints["tokenAuth.attach"], { params: { identityId }, body: {} });
  await page.goto(`/identities/${identityId}`);
  const row = methodRow(page, "Token auth");

  await row.getByRole("button", { name: "Create token" }).click();
  const dialog = page.getByRole("dialog", { name: "Create access token" });
  await dialog.getByLabel("Name (optional)").fill("e2e");
  await dialog.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByRole("dialog", { name: "Access token created" });
  await expect(shown).toContainText("It will not be shown again");
  const token = (await shown.getByLabel("New access token").textContent()) ?? "";
  expect(token.length).toBeGreaterThan(20);

  const whoAmI = () =>
    fetch(`${process.env.KEYHOLD_E2E_SERVICE_URL}/api/v1/identities/${identityId}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
  expect((await whoAmI()).status).toBe(200);

  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();
  await row.getByRole("button", { name: "Revoke Token auth" }).click();
  // The token is live, so revoking the method asks for its name.
  await page.getByRole("alertdialog").getByRole("textbox", { name: "Type Token auth to confirm" }).fill("Token auth");
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke" }).click();
  await expect(row.getByText("Not attached")).toBeVisible();
  expect((await whoAmI()).status).toBe(401);
});
