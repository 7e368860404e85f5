import type { Locator, Page } from "@playwright/test";

/** The row of one method in the identity page's auth-methods section. */
export function methodRow(page: Page, label: string): Locator {
  return page
    .getByRole("region", { name: "Auth methods" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: label, exact: true }) });
}

/** Ticks an auth-method form's acknowledgement that its open settings (empty lists, any address) admit anyone. */
export async function acknowledgeUnrestricted(dialog: Locator): Promise<void> {
  await dialog.getByRole("checkbox", { name: "I understand this admits all of the above" }).check();
}
