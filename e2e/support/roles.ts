import type { Page } from "@playwright/test";
import { expect } from "./fixtures.ts";

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
