import { endpoints } from "@keyhold/contract";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "../support/fixtures.ts";

/** The row of one method in the identity page's auth-methods section. */
function methodRow(page: Page, label: string): Locator {
  return page
    .getByRole("region", { name: "Auth methods" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: label, exact: true }) });
}

const methods = [
  { label: "Token auth", key: "tokenAuth", fill: async (_dialog: Locator) => {} },
  { label: "Universal auth", key: "universalAuth", fill: async (_dialog: Locator) => {} },
  {
    label: "Kubernetes auth",
    key: "kubernetesAuth",
    fill: async (dialog: Locator) => {
      await dialog.getByLabel("Kubernetes host").fill("https://k8s.example.com:6443");
      await dialog.getByLabel("Token reviewer JWT").fill("reviewer.jwt.value");
      await dialog.getByLabel("Allowed namespaces").fill("ci, default");
    },
  },
  {
    label: "OIDC auth",
    key: "oidcAuth",
    fill: async (dialog: Locator) => {
      await dialog.getByLabel("Discovery URL").fill("https://issuer.example.com");
      await dialog.getByLabel("Issuer", { exact: true }).fill("https://issuer.example.com");
    },
  },
  { label: "AWS auth", key: "awsAuth", fill: async (_dialog: Locator) => {} },
] as const;

for (const method of methods) {
  test(`attaches, edits and revokes ${method.label}`, async ({ signedIn: page, service, seededIdentity }) => {
    const identityId = seededIdentity.identity.id;
    const get = () => service(endpoints[`${method.key}.get`], { params: { identityId } });
    await page.goto(`/identities/${identityId}`);
    const row = methodRow(page, method.label);
    await expect(row.getByText("Not attached")).toBeVisible();

    await row.getByRole("button", { name: `Attach ${method.label}` }).click();
    const attach = page.getByRole("dialog", { name: `Attach ${method.label}` });
    await method.fill(attach);
    await attach.getByRole("button", { name: `Attach ${method.label}` }).click();
    await expect(attach).toBeHidden();
    await expect(row.getByText("Attached", { exact: true })).toBeVisible();
    await expect(row.getByRole("definition").filter({ hasText: "30 days" }).first()).toBeVisible();

    await row.getByRole("button", { name: `Edit ${method.label}` }).click();
    const edit = page.getByRole("dialog", { name: `Edit ${method.label}` });
    await edit.getByLabel("Access token TTL", { exact: true }).fill("12h");
    await expect(edit.getByText(/12 hours: a token issued now expires/)).toBeVisible();
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(edit).toBeHidden();
    await expect(row.getByRole("definition").filter({ hasText: "12 hours" })).toBeVisible();
    const saved = Object.values(await get())[0] as { accessTokenTTL: number };
    expect(saved.accessTokenTTL).toBe(43_200);

    await row.getByRole("button", { name: `Revoke ${method.label}` }).click();
    const confirm = page.getByRole("alertdialog", { name: `Revoke ${method.label}?` });
    await expect(confirm).toContainText("stops working");
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await expect(confirm).toBeHidden();
    await expect(row.getByText("Not attached")).toBeVisible();
    await expect(get()).rejects.toMatchObject({ status: 404 });
  });
}

test("shows a form error from the server and keeps the dialog open", async ({ signedIn: page, seededIdentity }) => {
  await page.goto(`/identities/${seededIdentity.identity.id}`);
  await methodRow(page, "Token auth").getByRole("button", { name: "Attach Token auth" }).click();
  const dialog = page.getByRole("dialog", { name: "Attach Token auth" });
  await dialog.getByLabel("Access token TTL", { exact: true }).fill("60d");
  await dialog.getByRole("button", { name: "Attach Token auth" }).click();
  await expect(dialog.getByText("The access token TTL cannot exceed the access token max TTL")).toBeVisible();
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
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke" }).click();
  await expect(row.getByText("Not attached")).toBeVisible();
  expect((await whoAmI()).status).toBe(401);
});

test("a reviewer JWT is never shown back and can be cleared", async ({ signedIn: page, service, seededIdentity }) => {
  const identityId = seededIdentity.identity.id;
  await service(endpoints["kubernetesAuth.attach"], {
    params: { identityId },
    body: {
      kubernetesHost: "https://k8s.example.com",
      tokenReviewerJwt: "secret-reviewer-jwt",
      allowedNamespaces: "",
      allowedNames: "",
      allowedAudience: "",
    },
  });
  await page.goto(`/identities/${identityId}`);
  const row = methodRow(page, "Kubernetes auth");
  await expect(row.getByText("Set (never shown)")).toBeVisible();
  await row.getByRole("button", { name: "Edit Kubernetes auth" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Kubernetes auth" });
  await expect(dialog.getByLabel("Token reviewer JWT")).toHaveValue("");
  await expect(page.getByText("secret-reviewer-jwt")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Clear" }).click();
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText("Not set", { exact: true })).toBeVisible();
  const { identityKubernetesAuth } = await service(endpoints["kubernetesAuth.get"], { params: { identityId } });
  expect(identityKubernetesAuth.tokenReviewerJwt ?? null).toBeNull();
});
