import { endpoints, type PermissionRuleInput } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import type { ServiceCall } from "./api.ts";
import { expect, uniqueName } from "./fixtures.ts";

/** Creates a custom role in a project through the API, its slug made unique from `slugPrefix`; answers the slug. */
export async function seedRole(
  service: ServiceCall,
  projectId: string,
  role: { name: string; slugPrefix: string; permissions: PermissionRuleInput[] },
): Promise<string> {
  const slug = uniqueName(role.slugPrefix);
  await service(endpoints["projectRoles.create"], {
    params: { projectId },
    body: { name: role.name, slug, permissions: role.permissions },
  });
  return slug;
}

/** Renames the role open on its page in the "Edit role details" dialog; the page follows the new slug. */
export async function editRoleDetails(page: Page, name: string, slug: string) {
  await page.getByRole("button", { name: "Edit details" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit role details" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Slug").fill(slug);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/roles/${slug}$`));
}
