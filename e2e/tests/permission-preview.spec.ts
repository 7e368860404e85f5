import { endpoints } from "@keyhold/contract";
import { expect, test } from "../support/fixtures.ts";
import { seedRole } from "../support/roles.ts";
import { seedFolder, seedFolders } from "../support/secrets.ts";

/**
 * The permission-change preview against the real service: a project, its folders, a custom role
 * and the identities holding it are seeded through the API; what the preview lists is what the
 * service would decide after the save, and it is shown before anything is sent.
 */

test("editing a role lists the identity that loses reading prod, with its folder, before the save is sent", async ({
  signedIn: page,
  service,
  seededProject,
  seededIdentity,
  memberIdentity,
}) => {
  const projectId = seededProject.id;
  const roleSlug = await seedRole(service, projectId, {
    slugPrefix: "prod-reader",
    name: "Prod Reader",
    permissions: [{ subject: "secrets", action: ["readValue", "describeSecret"], conditions: { environment: "prod" } }],
  });
  await seedFolder(service, seededProject, "app", "/", "prod");
  // The only read of prod the first identity has comes from the custom role.
  await service(endpoints["identityMemberships.add"], {
    params: { projectId, identityId: seededIdentity.identity.id },
    body: { roles: [{ role: roleSlug, isTemporary: false }] },
  });
  // The second also holds the viewer role, which reads every environment: it loses nothing.
  await service(endpoints["identityMemberships.add"], {
    params: { projectId, identityId: memberIdentity.identity.id },
    body: {
      roles: [
        { role: roleSlug, isTemporary: false },
        { role: "viewer", isTemporary: false },
      ],
    },
  });

  const roleSaves: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "PATCH" && request.url().includes("/roles/")) roleSaves.push(request.url());
  });
  await page.goto(`/projects/${projectId}/roles/${roleSlug}`);
  const secrets = page.getByRole("group", { name: "Secrets", exact: true });
  await secrets.getByRole("checkbox", { name: "Read value" }).uncheck();
  await page.getByRole("button", { name: "Save permissions" }).click();

  const review = page.getByRole("dialog", { name: "Save the permissions of Prod Reader?" });
  const changes = review.getByRole("list", { name: `Changes for ${seededIdentity.identity.name}` });
  const loss = changes.getByText("Loses Read value in prod: 2 folders");
  await expect(loss).toBeVisible();
  await loss.click();
  await expect(changes.getByText("/app", { exact: true })).toBeVisible();
  await expect(changes.getByText("was granted by role Prod Reader").first()).toBeVisible();
  await expect(review.getByText("No change for 1 other member.")).toBeVisible();
  await expect(review.getByRole("list", { name: `Changes for ${memberIdentity.identity.name}` })).toHaveCount(0);
  expect(roleSaves).toEqual([]);

  await review.getByRole("button", { name: "Save permissions" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Permissions saved" })).toBeVisible();
  expect(roleSaves).toHaveLength(1);
  const { role } = await service(endpoints["projectRoles.getBySlug"], { params: { projectId, roleSlug } });
  expect(role.permissions).toEqual([
    expect.objectContaining({ subject: "secrets", action: ["describeSecret"], conditions: { environment: "prod" } }),
  ]);
});

test("a role change that changes nobody's access says so", async ({ signedIn: page, service, seededProject }) => {
  const projectId = seededProject.id;
  const roleSlug = await seedRole(service, projectId, {
    slugPrefix: "unheld",
    name: "Unheld",
    permissions: [{ subject: "environments", action: ["read"] }],
  });
  await page.goto(`/projects/${projectId}/roles/${roleSlug}`);
  await page.getByRole("group", { name: "Secrets", exact: true }).getByRole("checkbox", { name: "Read value" }).check();
  await page.getByRole("button", { name: "Save permissions" }).click();
  await expect(
    page.getByRole("dialog").getByText("No user or identity holds this now: nobody's access to secrets changes."),
  ).toBeVisible();
});

test("a temporary privilege's preview shows what it grants now and, on the time slider, that it ends", async ({
  signedIn: page,
  service,
  seededProject,
  seededIdentity,
}) => {
  const projectId = seededProject.id;
  const identity = seededIdentity.identity;
  await service(endpoints["identityMemberships.add"], {
    params: { projectId, identityId: identity.id },
    body: { roles: [{ role: "no-access", isTemporary: false }] },
  });
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("additional-privilege")) sent.push(request.url());
  });

  await page.goto(`/projects/${projectId}/access?identity=${identity.id}`);
  const privileges = page.getByRole("region", { name: `Additional privileges of ${identity.name}` });
  await privileges.getByRole("button", { name: "Add privilege" }).click();
  const dialog = page.getByRole("dialog", { name: "Add privilege" });
  await dialog.getByLabel("Name").fill("prod-read");
  await dialog.getByRole("switch", { name: "Temporary privilege" }).click();
  await dialog.getByRole("textbox", { name: "Duration" }).fill("1h");
  await dialog
    .getByRole("group", { name: "Secrets", exact: true })
    .getByRole("checkbox", { name: "Read value" })
    .check();

  const preview = dialog.getByRole("region", { name: "What this changes on secrets" });
  await expect(preview.getByText("Gains Read value in prod: /")).toBeVisible();
  const slider = preview.getByRole("slider", { name: "Access over time" });
  await expect(slider).toHaveAttribute("aria-valuetext", "Now");
  await slider.focus();
  await page.keyboard.press("ArrowRight");
  await expect(slider).toHaveAttribute("aria-valuetext", /privilege prod-read ends$/);
  await expect(preview.getByText("No change to this identity's access to secrets.")).toBeVisible();
  expect(sent).toEqual([]);

  await dialog.getByRole("button", { name: "Add privilege" }).click();
  await expect(dialog).toBeHidden();
  expect(sent).toHaveLength(1);
});

test("the effective-access view names the rule that grants each answer", async ({
  signedIn: page,
  service,
  seededProject,
  seededIdentity,
}) => {
  const projectId = seededProject.id;
  const identity = seededIdentity.identity;
  const roleSlug = await seedRole(service, projectId, {
    slugPrefix: "prod-reader",
    name: "Prod Reader",
    permissions: [{ subject: "secrets", action: ["readValue"], conditions: { environment: "prod" } }],
  });
  await service(endpoints["identityMemberships.add"], {
    params: { projectId, identityId: identity.id },
    body: { roles: [{ role: roleSlug, isTemporary: false }] },
  });

  await page.goto(`/projects/${projectId}/access?identity=${identity.id}`);
  await page
    .getByRole("region", { name: `Additional privileges of ${identity.name}` })
    .getByRole("button", { name: "Effective access" })
    .click();
  const dialog = page.getByRole("dialog", { name: `Effective access of ${identity.name}` });
  const prod = dialog.getByRole("table", { name: "Secret access in prod" });
  const root = prod.getByRole("row").filter({ hasText: "/" });
  await expect(root.getByRole("cell").nth(1)).toHaveText("Allowed, granted by role Prod Reader");
  await expect(root.getByRole("cell").nth(2)).toHaveText("Not allowed, no rule");
  await expect(dialog.getByRole("list", { name: "Rules deciding in prod" })).toHaveText(
    'Granted by role Prod Reader (secrets where environment = "prod")',
  );
  await expect(
    dialog.getByRole("table", { name: "Secret access in dev" }).getByRole("row").nth(1).getByRole("cell").nth(1),
  ).toHaveText("Not allowed, no rule");
});

test("changing an identity's roles previews what it loses before the roles are saved", async ({
  signedIn: page,
  service,
  seededProject,
  seededIdentity,
}) => {
  const projectId = seededProject.id;
  const identity = seededIdentity.identity;
  await service(endpoints["identityMemberships.add"], {
    params: { projectId, identityId: identity.id },
    body: { roles: [{ role: "viewer", isTemporary: false }] },
  });

  await page.goto(`/projects/${projectId}/access`);
  await page.getByRole("button", { name: `Edit roles of ${identity.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Edit roles of ${identity.name}` });
  await dialog.getByRole("combobox").first().selectOption({ label: "No Access" });
  const preview = dialog.getByRole("region", { name: "What this changes on secrets" });
  await expect(preview.getByText("Loses Read value in prod: /")).toBeVisible();
  await expect(preview.getByText("Loses Describe in dev: /")).toBeVisible();
  const { identityMembership } = await service(endpoints["identityMemberships.get"], {
    params: { projectId, identityId: identity.id },
  });
  expect(identityMembership.roles).toEqual([expect.objectContaining({ role: "viewer" })]);
});

test("typing a glob in a role's condition counts the prod folders it matches", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  const projectId = seededProject.id;
  const roleSlug = await seedRole(service, projectId, {
    slugPrefix: "svc-db",
    name: "Service databases",
    permissions: [
      { subject: "secrets", action: ["readValue"], conditions: { environment: "prod", secretPath: { $glob: "/x" } } },
    ],
  });
  // prod: /svc/a/db, /svc/b/db and /svc/b/cache; dev: /svc/a/db, which the rule's environment leaves out.
  const folders: [string, string, string][] = [
    ["prod", "/", "svc"],
    ["prod", "/svc", "a"],
    ["prod", "/svc", "b"],
    ["prod", "/svc/a", "db"],
    ["prod", "/svc/b", "db"],
    ["prod", "/svc/b", "cache"],
    ["dev", "/", "svc"],
    ["dev", "/svc", "a"],
    ["dev", "/svc/a", "db"],
  ];
  await seedFolders(service, seededProject, folders);

  await page.goto(`/projects/${projectId}/roles/${roleSlug}`);
  const secrets = page.getByRole("group", { name: "Secrets", exact: true });
  await expect(secrets.getByText("Matches no folder in this project.")).toBeVisible();
  const glob = secrets.getByLabel("Secrets rule 1, condition 2: value");
  await glob.fill("/svc/*/db");
  await expect(secrets.getByText("Matches 2 folders in prod.")).toBeVisible();
  await glob.fill("/svc/**");
  await expect(secrets.getByText("Matches 6 folders in prod.")).toBeVisible();
});
