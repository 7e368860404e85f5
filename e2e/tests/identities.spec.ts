import { endpoints } from "@keyhold/contract";
import { ServiceError } from "../support/api.ts";
import { expect, test, uniqueName } from "../support/fixtures.ts";

test("lists identities with their role", async ({ signedIn: page, seededIdentity }) => {
  await page.goto("/identities");
  const row = page.getByRole("row").filter({ hasText: seededIdentity.identity.name });
  await expect(row).toBeVisible();
  await expect(row).toContainText(/member/i);
});

test("creates an identity", async ({ signedIn: page, service }) => {
  const name = uniqueName("created");
  await page.goto("/identities");
  await page.getByRole("button", { name: "Create identity" }).first().click();

  const dialog = page.getByRole("dialog", { name: "Create identity" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create identity" }).click();

  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const id = page.url().split("/").pop() ?? "";
  const { identity } = await service(endpoints["identities.get"], { params: { identityId: id } });
  expect(identity.identity.name).toBe(name);
  expect(identity.role).toBe("no-access");
  await service(endpoints["identities.delete"], { params: { identityId: id } });
});

test("edits an identity's name and metadata", async ({ signedIn: page, service, seededIdentity }) => {
  const id = seededIdentity.identity.id;
  const newName = uniqueName("renamed");
  await page.goto(`/identities/${id}`);
  await page.getByRole("navigation", { name: "Identity sections" }).getByRole("link", { name: "Edit" }).click();

  await page.getByLabel("Name", { exact: true }).fill(newName);
  await page.getByRole("button", { name: "Add metadata" }).click();
  await page.getByLabel("Key").last().fill("region");
  await page.getByLabel("Value").last().fill("eu-west-1");
  await page.getByRole("button", { name: "Save changes" }).click();

  await expect(page.getByRole("heading", { level: 1, name: newName })).toBeVisible();
  const { identity } = await service(endpoints["identities.get"], { params: { identityId: id } });
  expect(identity.identity.name).toBe(newName);
  expect(identity.metadata?.map(({ key, value }) => ({ key, value }))).toEqual([
    { key: "team", value: "platform" },
    { key: "region", value: "eu-west-1" },
  ]);
});

test("shows the reason when a field is refused", async ({ signedIn: page, seededIdentity }) => {
  await page.goto(`/identities/${seededIdentity.identity.id}`);
  await page.getByRole("navigation", { name: "Identity sections" }).getByRole("link", { name: "Edit" }).click();
  await page.getByLabel("Name", { exact: true }).fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText(/name is required/i)).toBeVisible();
  await expect(page).toHaveURL(/\/edit$/);
});

test("deletes an identity only after confirmation", async ({ signedIn: page, service, seededIdentity }) => {
  const { id, name } = seededIdentity.identity;
  await page.goto(`/identities/${id}`);

  await page.getByRole("button", { name: "Delete identity" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(name);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  expect((await service(endpoints["identities.get"], { params: { identityId: id } })).identity.identityId).toBe(id);

  await page.getByRole("button", { name: "Delete identity" }).click();
  await expect(confirm.getByRole("button", { name: "Delete", exact: true })).toBeDisabled();
  await confirm.getByRole("textbox", { name: `Type ${name} to confirm` }).fill(name);
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();

  await expect(page).toHaveURL(/\/identities$/);
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  const error = await service(endpoints["identities.get"], { params: { identityId: id } }).catch((e) => e);
  expect(error).toBeInstanceOf(ServiceError);
  expect((error as ServiceError).status).toBe(404);
});

test("creates an identity with the keyboard alone", async ({ signedIn: page, service }) => {
  const name = uniqueName("keyboard");
  await page.goto("/identities");
  await page.getByRole("button", { name: "Create identity" }).first().focus();
  await page.keyboard.press("Enter");

  const dialog = page.getByRole("dialog", { name: "Create identity" });
  await expect(dialog.getByLabel("Name")).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press("Enter");

  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const id = page.url().split("/").pop() ?? "";
  await service(endpoints["identities.delete"], { params: { identityId: id } });
});

test("closes the create dialog with Escape without creating anything", async ({ signedIn: page, service, session }) => {
  const name = uniqueName("escaped");
  await page.goto("/identities");
  await page.getByRole("button", { name: "Create identity" }).first().click();
  await page.getByRole("dialog", { name: "Create identity" }).getByLabel("Name").fill(name);
  await page.keyboard.press("Escape");

  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page.getByRole("button", { name: "Create identity" }).first()).toBeFocused();
  const { identities } = await service(endpoints["identities.list"], { query: { orgId: session.organization.id } });
  expect(identities.map((m) => m.identity.name)).not.toContain(name);
});

test("shows a not-found page for an identity that does not exist", async ({ signedIn: page }) => {
  await page.goto("/identities/00000000-0000-4000-8000-000000000000");
  await expect(page.getByText("This page does not exist")).toBeVisible();
  await page.getByRole("link", { name: "Go to identities" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
});

test("the signed-in identity cannot change its own role or delete itself", async ({ signedIn: page, session }) => {
  await page.goto(`/identities/${session.identity.id}`);
  await page.getByRole("button", { name: "Delete identity" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("an identity cannot delete itself");
  await expect(confirm.getByRole("button", { name: "Delete", exact: true })).toBeDisabled();
  await confirm.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("navigation", { name: "Identity sections" }).getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("combobox", { name: "Organization role" })).toBeDisabled();
  await expect(page.getByText("its role can only be changed by another admin")).toBeVisible();
});
