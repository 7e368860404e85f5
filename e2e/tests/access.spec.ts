import { endpoints } from "@keyhold/contract";
import type { Locator } from "@playwright/test";
import { serviceClient, statusOf } from "../support/api.ts";
import { chooseIdentity, identityRow, openAccess, signInAsMember, tokenOf } from "../support/access.ts";
import { expect, test, uniqueName } from "../support/fixtures.ts";

/**
 * The access page against the real service. Projects and identities are seeded through the API
 * with unique names and deleted afterwards; what the browser changes is read back through the
 * API, and what a grant allows is proved with the identity's own token.
 */

async function chooseRole(dialog: Locator, label: string, role: string) {
  await dialog.getByRole("combobox", { name: label, exact: true }).selectOption({ label: role });
}

test("a custom role with a condition and a temporary privilege, given in the console, grant exactly what they say until the privilege ends", async ({
  signedIn: page,
  service,
  session,
  seededProject,
  seededIdentity,
}) => {
  test.setTimeout(150_000);
  const identity = seededIdentity.identity;
  const projectId = seededProject.id;

  // 1. A custom role through the roles page's builder: read identity memberships, only its own.
  const roleName = `Self Reader ${uniqueName("r").slice(2)}`;
  const roleSlug = roleName.toLowerCase().replaceAll(" ", "-");
  await page.goto(`/projects/${projectId}/roles`);
  await page.getByRole("button", { name: "Create role" }).click();
  const createRole = page.getByRole("dialog", { name: "Create role" });
  await createRole.getByLabel("Name").fill(roleName);
  await expect(createRole.getByLabel("Slug")).toHaveValue(roleSlug);
  await createRole.getByRole("button", { name: "Create role" }).click();
  await expect(page.getByRole("heading", { level: 1, name: roleName })).toBeVisible();
  const identities = page.getByRole("group", { name: "Identities", exact: true });
  await identities.getByRole("checkbox", { name: "Read", exact: true }).check();
  await identities.getByRole("button", { name: "Add condition" }).click();
  await identities.getByLabel("Identities rule 1, condition 1: value").fill(identity.id);
  await page.getByRole("button", { name: "Save permissions" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Save permissions" }).click();
  const savedRules = async () =>
    (await service(endpoints["projectRoles.getBySlug"], { params: { projectId, roleSlug } })).role.permissions;
  await expect.poll(savedRules).toEqual([
    expect.objectContaining({
      subject: "identity",
      action: ["read"],
      conditions: { identityId: { $eq: identity.id } },
    }),
  ]);

  // 2. The identity joins the project with that role, in the access page.
  await openAccess(page, seededProject);
  await page.getByRole("button", { name: "Add identity" }).click();
  const add = await chooseIdentity(page, identity.name);
  await chooseRole(add, "Role", roleName);
  await add.getByRole("button", { name: "Add identity" }).click();
  await expect(add).toBeHidden();
  await expect(identityRow(page, identity.name)).toContainText(roleName);
  const { identityMembership } = await service(endpoints["identityMemberships.get"], {
    params: { projectId, identityId: identity.id },
  });
  expect(identityMembership.roles).toEqual([
    expect.objectContaining({ role: "custom", customRoleSlug: roleSlug, isTemporary: false }),
  ]);

  // What the role alone gives, with the identity's own token.
  const asIdentity = serviceClient(process.env.KEYHOLD_E2E_SERVICE_URL ?? "", await tokenOf(service, identity.id));
  const readOwn = () =>
    statusOf(asIdentity(endpoints["identityMemberships.get"], { params: { projectId, identityId: identity.id } }));
  const readAdmin = () =>
    statusOf(
      asIdentity(endpoints["identityMemberships.get"], { params: { projectId, identityId: session.identity.id } }),
    );
  const listRoles = () => statusOf(asIdentity(endpoints["projectRoles.list"], { params: { projectId } }));
  const createEnvironment = () =>
    statusOf(
      asIdentity(endpoints["environments.create"], {
        params: { workspaceId: projectId },
        body: { name: "QA", slug: uniqueName("qa") },
      }),
    );
  expect(await readOwn()).toBe(200);
  expect(await readAdmin()).toBe(403);
  expect(await listRoles()).toBe(403);
  expect(await createEnvironment()).toBe(403);

  // 3. A temporary privilege, in the access page: read roles, for 30 seconds from now. The
  // privileges of the identity just added are open already.
  await expect(
    identityRow(page, identity.name).getByRole("button", { name: `Privileges of ${identity.name}` }),
  ).toHaveAttribute("aria-pressed", "true");
  const privileges = page.getByRole("region", { name: `Additional privileges of ${identity.name}` });
  await expect(privileges.getByText("No additional privileges.")).toBeVisible();
  await privileges.getByRole("button", { name: "Add privilege" }).click();
  const dialog = page.getByRole("dialog", { name: "Add privilege" });
  await dialog.getByLabel("Name").fill("read-roles-briefly");
  await dialog.getByRole("switch", { name: "Temporary privilege" }).click();
  await dialog.getByRole("textbox", { name: "Duration" }).fill("30s");
  await dialog
    .getByRole("group", { name: "Roles", exact: true })
    .getByRole("checkbox", { name: "Read", exact: true })
    .check();
  await dialog.getByRole("button", { name: "Add privilege" }).click();
  await expect(dialog).toBeHidden();
  const row = privileges.getByRole("row").filter({ hasText: "read-roles-briefly" });
  await expect(row).toContainText(/Ends in\s*\d+s/);

  const { privileges: listed } = await service(endpoints["identityPrivileges.list"], {
    query: { projectId, identityId: identity.id },
  });
  expect(listed).toHaveLength(1);
  const { privilege } = await service(endpoints["identityPrivileges.get"], { params: { id: listed[0]?.id ?? "" } });
  expect(privilege).toMatchObject({ slug: "read-roles-briefly", isTemporary: true, temporaryRange: "30s" });
  expect(privilege.permissions).toEqual([expect.objectContaining({ subject: "role", action: ["read"] })]);
  const endsAt = Date.parse(privilege.temporaryAccessEndTime ?? "");
  expect(endsAt - Date.parse(privilege.temporaryAccessStartTime ?? "")).toBe(30_000);

  // While it lasts: exactly the role plus the privilege.
  expect(Date.now()).toBeLessThan(endsAt);
  expect(await listRoles()).toBe(200);
  expect(await readOwn()).toBe(200);
  expect(await readAdmin()).toBe(403);
  expect(await createEnvironment()).toBe(403);
  expect(Date.now()).toBeLessThan(endsAt);

  // When it ends: the privilege no longer counts; the role still does.
  await expect.poll(listRoles, { timeout: 50_000, intervals: [1_000] }).toBe(403);
  expect(Date.now()).toBeGreaterThanOrEqual(endsAt - 1_000);
  expect(await readOwn()).toBe(200);
  // The console's countdown turned to "Expired" by itself, without a reload.
  await expect(row.getByText("Expired")).toBeVisible();
});

test("edits a privilege to permanent with another rule, then deletes it after confirming", async ({
  signedIn: page,
  service,
  seededProject,
  memberIdentity,
}) => {
  const identity = memberIdentity.identity;
  const projectId = seededProject.id;
  await service(endpoints["identityMemberships.add"], {
    params: { projectId, identityId: identity.id },
    body: { roles: [{ role: "viewer", isTemporary: false }] },
  });
  const { privilege } = await service(endpoints["identityPrivileges.create"], {
    body: {
      identityId: identity.id,
      projectId,
      slug: "env-reader",
      permissions: [{ subject: "environments", action: ["read"] }],
      type: {
        isTemporary: true,
        temporaryMode: "relative",
        temporaryRange: "7d",
        temporaryAccessStartTime: new Date().toISOString(),
      },
    },
  });

  await page.goto(`/projects/${projectId}/access?identity=${identity.id}`);
  const section = page.getByRole("region", { name: `Additional privileges of ${identity.name}` });
  const row = section.getByRole("row").filter({ hasText: "env-reader" });
  await expect(row).toContainText(/Ends in\s*(6d 23h|7d 00h)/);
  await row.getByRole("button", { name: "Edit privilege env-reader" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit privilege env-reader" });
  const environments = dialog.getByRole("group", { name: "Environments", exact: true });
  await expect(environments.getByRole("checkbox", { name: "Read", exact: true })).toBeChecked();
  await environments.getByRole("checkbox", { name: "Create", exact: true }).check();
  await dialog.getByRole("switch", { name: "Temporary privilege" }).click();
  await dialog.getByRole("button", { name: "Save privilege" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("Permanent");
  const { privilege: saved } = await service(endpoints["identityPrivileges.get"], { params: { id: privilege.id } });
  expect(saved.isTemporary).toBe(false);
  expect(saved.permissions).toEqual([
    expect.objectContaining({ subject: "environments", action: expect.arrayContaining(["read", "create"]) }),
  ]);

  await row.getByRole("button", { name: "Delete privilege env-reader" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete privilege" }).click();
  await expect(section.getByText("No additional privileges.")).toBeVisible();
  expect(await statusOf(service(endpoints["identityPrivileges.get"], { params: { id: privilege.id } }))).toBe(404);
});

test("invites a user by e-mail with a role", async ({ signedIn: page, service, seededProject }) => {
  const email = `${uniqueName("ada")}@example.com`;
  await openAccess(page, seededProject);
  await page.getByRole("tab", { name: "Users" }).click();
  await expect(page).toHaveURL(/tab=users/);
  await page.getByRole("button", { name: "Invite users" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Invite users" });
  await dialog.getByLabel("E-mail addresses").fill(`${email}, not-an-address`);
  await dialog.getByRole("button", { name: "Invite" }).click();
  await expect(dialog.getByText("Not an e-mail address: not-an-address")).toBeVisible();
  await dialog.getByLabel("E-mail addresses").fill(email);
  await chooseRole(dialog, "Role", "Viewer");
  await dialog.getByRole("button", { name: "Invite" }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole("table", { name: "Project users" }).getByRole("row").filter({ hasText: email }),
  ).toContainText("Viewer");
  const { memberships } = await service(endpoints["projects.listMemberships"], {
    params: { workspaceId: seededProject.id },
  });
  expect(memberships.find((m) => m.user.email === email)?.roles).toEqual([expect.objectContaining({ role: "viewer" })]);
});

test("controls a viewer may not use stay focusable and say why", async ({
  page,
  service,
  seededProject,
  memberIdentity,
}) => {
  await signInAsMember(page, service, seededProject, memberIdentity.identity.id, "viewer");

  await openAccess(page, seededProject);
  const add = page.getByRole("button", { name: "Add identity" });
  await expect(add).toBeDisabled();
  await add.focus();
  await expect(page.getByRole("tooltip")).toContainText(/identit/i);
  await add.click({ force: true });
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const row = identityRow(page, memberIdentity.identity.name);
  await expect(row.getByRole("button", { name: `Remove ${memberIdentity.identity.name}` })).toBeDisabled();
  // Reading is allowed: the privileges of a member can be looked at.
  await expect(row.getByRole("button", { name: `Privileges of ${memberIdentity.identity.name}` })).toBeEnabled();
});
