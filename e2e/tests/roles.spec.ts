import { endpoints, type Project, type ProjectRole } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import { signInAsMember } from "../support/access.ts";
import type { ServiceCall } from "../support/api.ts";
import { expect, test as base, uniqueName } from "../support/fixtures.ts";
import { editRoleDetails } from "../support/roles.ts";

/**
 * The roles page against the real service: every project and role is created through the API
 * with a unique name and deleted afterwards; every change made in the browser is read back
 * through the API.
 */
const test = base.extend<{ seededRole: ProjectRole }>({
  seededRole: async ({ service, seededProject }, use) => {
    const { role } = await service(endpoints["projectRoles.create"], {
      params: { projectId: seededProject.id },
      body: {
        name: "Release Manager",
        slug: uniqueName("release-manager"),
        description: "Ships releases",
        permissions: [{ subject: "environments", action: ["read"] }],
      },
    });
    await use(role);
    // Deleted with its project.
  },
});

function subjectRow(page: Page, subject: string) {
  return page.getByRole("group", { name: subject, exact: true });
}

async function readRole(service: ServiceCall, project: Project, slug: string) {
  const { role } = await service(endpoints["projectRoles.getBySlug"], {
    params: { projectId: project.id, roleSlug: slug },
  });
  return role;
}

test("creates a custom role with a condition through the builder, and shows the same rules as JSON", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await page.goto(`/projects/${seededProject.id}/roles`);
  await expect(page.getByRole("table", { name: "Built-in roles" }).getByRole("link", { name: "Admin" })).toBeVisible();
  await page.getByRole("button", { name: "Create role" }).click();

  const dialog = page.getByRole("dialog", { name: "Create role" });
  await dialog.getByLabel("Name").fill("Dev Secret Reader");
  await expect(dialog.getByLabel("Slug")).toHaveValue("dev-secret-reader");
  await dialog.getByRole("button", { name: "Create role" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Dev Secret Reader" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/projects/${seededProject.id}/roles/dev-secret-reader$`));

  const secrets = subjectRow(page, "Secrets");
  await secrets.getByRole("checkbox", { name: "Read value" }).check();
  await secrets.getByRole("checkbox", { name: "Describe" }).check();
  await secrets.getByRole("button", { name: "Add condition" }).click();
  await secrets.getByLabel("Secrets rule 1, condition 1: value").fill("dev");
  await secrets.getByRole("button", { name: "Add condition" }).click();
  await secrets.getByRole("combobox", { name: "Secrets rule 1, condition 2: field" }).selectOption("Secret path");
  await secrets.getByRole("combobox", { name: "Secrets rule 1, condition 2: operator" }).selectOption("matches glob");
  await secrets.getByLabel("Secrets rule 1, condition 2: value").fill("/app/**");
  await page.getByRole("button", { name: "Save permissions" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Save permissions" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Permissions saved" })).toBeVisible();

  const expected = {
    subject: "secrets",
    action: ["describeSecret", "readValue"],
    conditions: { environment: { $eq: "dev" }, secretPath: { $glob: "/app/**" } },
  };
  const role = await readRole(service, seededProject, "dev-secret-reader");
  expect(role.permissions).toHaveLength(1);
  expect(role.permissions[0]).toMatchObject(expected);

  await page.getByRole("tab", { name: "JSON" }).click();
  const json = page.getByRole("region", { name: "Permission rules as JSON" });
  await expect(json).toContainText('"$glob": "/app/**"');
  const shown = JSON.parse((await json.locator("code").textContent()) ?? "");
  expect(shown).toHaveLength(1);
  expect(shown[0]).toMatchObject(expected);
});

test("explains what is missing before saving a rule the server would refuse", async ({
  signedIn: page,
  service,
  seededProject,
  seededRole,
}) => {
  await page.goto(`/projects/${seededProject.id}/roles/${seededRole.slug}`);
  const secrets = subjectRow(page, "Secrets");
  await secrets.getByRole("checkbox", { name: "Read value" }).check();
  await secrets.getByRole("button", { name: "Add condition" }).click();
  await secrets.getByRole("combobox", { name: "Secrets rule 1, condition 1: field" }).selectOption("Secret path");
  await secrets.getByLabel("Secrets rule 1, condition 1: value").fill("app");
  await page.getByRole("button", { name: "Save permissions" }).click();

  await expect(page.getByRole("alert")).toContainText("Fix 1 problem");
  await expect(secrets.getByText("A secret path starts with “/”")).toBeVisible();
  const role = await readRole(service, seededProject, seededRole.slug);
  expect(role.permissions).toEqual([expect.objectContaining({ subject: "environments", action: ["read"] })]);
});

test("edits a custom role: a deny rule, then its name and slug", async ({
  signedIn: page,
  service,
  seededProject,
  seededRole,
}) => {
  await page.goto(`/projects/${seededProject.id}/roles/${seededRole.slug}`);
  const environments = subjectRow(page, "Environments");
  await expect(environments.getByRole("checkbox", { name: "Read" })).toBeChecked();
  await environments.getByRole("button", { name: "Add another Environments rule" }).click();
  await environments
    .getByRole("group", { name: "Environments rule 2: actions" })
    .getByRole("checkbox", { name: "Delete" })
    .check();
  await environments.getByRole("radiogroup", { name: "Environments rule 2: effect" }).getByText("Deny").click();
  await page.getByRole("button", { name: "Save permissions" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Save permissions" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Permissions saved" })).toBeVisible();
  expect((await readRole(service, seededProject, seededRole.slug)).permissions).toEqual([
    expect.objectContaining({ subject: "environments", action: ["read"] }),
    expect.objectContaining({ subject: "environments", action: ["delete"], inverted: true }),
  ]);

  const newSlug = uniqueName("release-lead");
  await editRoleDetails(page, "Release Lead", newSlug);
  const renamed = await readRole(service, seededProject, newSlug);
  expect(renamed).toMatchObject({ id: seededRole.id, name: "Release Lead", description: "Ships releases" });
});

test("shows the server's refusal to delete a role an identity holds", async ({
  signedIn: page,
  service,
  seededProject,
  seededRole,
  seededIdentity,
}) => {
  await service(endpoints["identityMemberships.add"], {
    params: { projectId: seededProject.id, identityId: seededIdentity.identity.id },
    body: { roles: [{ role: seededRole.slug }] },
  });
  await page.goto(`/projects/${seededProject.id}/roles/${seededRole.slug}`);
  await page.getByRole("button", { name: "Delete role" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete role" });
  await expect(confirm).toContainText("In use by 1 identity.");
  await confirm.getByRole("textbox", { name: `Type ${seededRole.slug} to confirm` }).fill(seededRole.slug);
  await confirm.getByRole("button", { name: "Delete role" }).click();

  await expect(confirm.getByRole("alert")).toContainText(/Could not delete the role\. .*assigned/i);
  await expect(confirm).toBeVisible();
  expect((await readRole(service, seededProject, seededRole.slug)).id).toBe(seededRole.id);
});

test("shows a built-in role read-only and duplicates it into a custom role with the same rules", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await page.goto(`/projects/${seededProject.id}/roles`);
  await page.getByRole("table", { name: "Built-in roles" }).getByRole("link", { name: "Viewer" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Viewer" })).toBeVisible();
  await expect(page.getByRole("note")).toContainText("Built-in roles cannot be changed.");
  await expect(subjectRow(page, "Secrets").getByRole("checkbox").first()).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save permissions" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete role" })).toHaveCount(0);

  await page.getByRole("button", { name: "Duplicate" }).click();
  const dialog = page.getByRole("dialog", { name: "Duplicate role" });
  await expect(dialog.getByLabel("Name")).toHaveValue("Viewer copy");
  await expect(dialog.getByLabel("Slug")).toHaveValue("viewer-copy");
  await expect(dialog).toContainText(/Copies \d+ rules from Viewer/);
  await dialog.getByRole("button", { name: "Duplicate role" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Viewer copy" })).toBeVisible();

  const [viewer, copy] = await Promise.all([
    readRole(service, seededProject, "viewer"),
    readRole(service, seededProject, "viewer-copy"),
  ]);
  // The same rules; a stored rule reads back with an explicit `inverted: false`.
  const plain = (rules: ProjectRole["permissions"]) =>
    rules.map(({ inverted, ...rule }) => ({ ...rule, inverted: !!inverted }));
  expect(plain(copy.permissions)).toEqual(plain(viewer.permissions));
});

test("a project viewer sees why it cannot create, edit or delete roles", async ({
  page,
  service,
  session,
  seededProject,
  seededRole,
}) => {
  const { identity } = await service(endpoints["identities.create"], {
    body: { name: uniqueName("e2e-role-viewer"), organizationId: session.organization.id, role: "member" },
  });
  try {
    await signInAsMember(page, service, seededProject, identity.id, "viewer");

    await page.goto(`/projects/${seededProject.id}/roles`);
    const create = page.getByRole("button", { name: "Create role" });
    await expect(create).toHaveAttribute("aria-disabled", "true");
    await expect(create).toHaveAccessibleDescription("Your project permissions do not include “Create” on roles.");
    // The inert control opens nothing (force: Playwright would otherwise wait for it to be enabled).
    await create.click({ force: true });
    await expect(page.getByRole("dialog")).toHaveCount(0);

    await page.getByRole("link", { name: seededRole.name }).click();
    await expect(page.getByRole("note")).toHaveText("Your project permissions do not include “Edit” on roles.");
    await expect(subjectRow(page, "Environments").getByRole("checkbox", { name: "Read" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Delete role" })).toHaveAttribute("aria-disabled", "true");
  } finally {
    await service(endpoints["identities.delete"], { params: { identityId: identity.id } });
  }
});

test("asks before leaving a role with unsaved rules", async ({ signedIn: page, seededProject, seededRole }) => {
  await page.goto(`/projects/${seededProject.id}/roles/${seededRole.slug}`);
  await subjectRow(page, "Tags").getByRole("checkbox", { name: "Read" }).check();
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Roles", exact: true }).click();

  const ask = page.getByRole("alertdialog", { name: "Discard unsaved changes?" });
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { level: 1, name: seededRole.name })).toBeVisible();
  await expect(subjectRow(page, "Tags").getByRole("checkbox", { name: "Read" })).toBeChecked();

  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Roles", exact: true }).click();
  await ask.getByRole("button", { name: "Discard changes" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Roles" })).toBeVisible();
});

test("shows the not-found page for a role that does not exist", async ({ signedIn: page, seededProject }) => {
  await page.goto(`/projects/${seededProject.id}/roles/no-such-role`);
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
});
