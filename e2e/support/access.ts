import { endpoints, type Project } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import type { ServiceCall } from "./api.ts";
import { csrf, expect } from "./fixtures.ts";

/** The project access page, for the specs that grant and read access through it. */
export async function openAccess(page: Page, project: Project) {
  await page.goto(`/projects/${project.id}/access`);
  await expect(page.getByRole("heading", { level: 1, name: "Access" })).toBeVisible();
}

export function identityRow(page: Page, name: string) {
  return page.getByRole("table", { name: "Project identities" }).getByRole("row").filter({ hasText: name });
}

/** Picks the identity in the open "Add identity to project" dialog, and returns that dialog. */
export async function chooseIdentity(page: Page, name: string) {
  const dialog = page.getByRole("dialog", { name: "Add identity to project" });
  await dialog.getByRole("combobox", { name: "Identity" }).fill(name);
  await dialog.getByRole("option", { name }).click();
  await expect(dialog.getByText(`Chosen: ${name}`)).toBeVisible();
  return dialog;
}

/** An access token of the identity itself, through token auth. */
export async function tokenOf(service: ServiceCall, identityId: string): Promise<string> {
  await service(endpoints["tokenAuth.attach"], { params: { identityId }, body: {} });
  const issued = await service(endpoints["tokenAuth.createToken"], { params: { identityId }, body: { name: "e2e" } });
  return issued.accessToken;
}

/** Makes the identity a member of the project with one permanent role, and signs the page in as it. */
export async function signInAsMember(
  page: Page,
  service: ServiceCall,
  project: Project,
  identityId: string,
  role: string,
): Promise<void> {
  await service(endpoints["identityMemberships.add"], {
    params: { projectId: project.id, identityId },
    body: { roles: [{ role, isTemporary: false }] },
  });
  const accessToken = await tokenOf(service, identityId);
  expect((await page.request.post("/bff/login", { headers: csrf, data: { accessToken } })).status()).toBe(200);
}
