import { endpoints, type ProjectRole } from "@keyhold/contract";
import type { Locator, Page } from "@playwright/test";
import { chooseIdentity, identityRow, openAccess, signInAsMember } from "../support/access.ts";
import { ignoreNotFound } from "../support/api.ts";
import { csrf, expect, server, test, uniqueName } from "../support/fixtures.ts";
import { editRoleDetails } from "../support/roles.ts";

/**
 * The projects area of the console against any Infisical-compatible server: our service and the
 * real Infisical servers of October 2024 and mid-2026 (`pnpm test:infisical`). Seeding goes
 * through the server's API with fields every line takes (no description or delete protection,
 * which 2024 servers do not keep); where a line lacks a feature or its plan refuses one, the
 * test checks what the console says instead.
 */

const DEFAULT_ENVIRONMENTS = [
  ["Development", "dev"],
  ["Staging", "staging"],
  ["Production", "prod"],
] as const;

/**
 * A read through the BFF, as the signed-in console makes it: older servers answer some contract
 * paths elsewhere (roles by project slug, a missing project with 500), which the BFF evens out.
 */
async function throughBff<T>(page: Page, path: string): Promise<{ status: number; body: T }> {
  const response = await page.request.get(path, { headers: csrf });
  return { status: response.status(), body: (await response.json()) as T };
}

async function customRoleSlugs(page: Page, projectId: string): Promise<string[]> {
  const { status, body } = await throughBff<{ roles: ProjectRole[] }>(page, `/api/v2/workspace/${projectId}/roles`);
  expect(status).toBe(200);
  const builtIn = new Set(["admin", "member", "viewer", "no-access"]);
  return body.roles.map((r) => r.slug).filter((slug) => !builtIn.has(slug));
}

function environmentRow(page: Page, name: string): Locator {
  return page.getByRole("table", { name: "Environments" }).getByRole("row").filter({ hasText: name });
}

test.describe("projects", () => {
  test("lists the identity's projects and opens one's overview with its environments", { tag: "@live" }, async ({
    signedIn: page,
    seededProject,
  }) => {
    await page.goto("/projects");
    const table = page.getByRole("table", { name: "Projects" });
    const row = table.getByRole("row").filter({ hasText: seededProject.name });
    await expect(row).toContainText(seededProject.slug);
    await expect(row).toContainText("dev");

    await table.getByRole("link", { name: seededProject.name }).click();
    await expect(page.getByRole("heading", { level: 1, name: seededProject.name })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/projects/${seededProject.id}$`));
    for (const [name, slug] of DEFAULT_ENVIRONMENTS) await expect(environmentRow(page, name)).toContainText(slug);
  });

  test("creates a project with the default environments, then deletes it after confirming", { tag: "@live" }, async ({
    signedIn: page,
    service,
  }) => {
    const name = uniqueName("Live Project");
    await page.goto("/projects");
    await page.getByRole("button", { name: "Create project" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Create project" });
    await dialog.getByLabel("Name").fill(name);
    const slug = await dialog.getByLabel("Slug").inputValue();
    await expect(dialog.getByRole("switch", { name: "Default environments" })).toBeChecked();
    await dialog.getByRole("button", { name: "Create project" }).click();

    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    const projectId = new URL(page.url()).pathname.split("/").pop() ?? "";
    try {
      for (const [envName, envSlug] of DEFAULT_ENVIRONMENTS) {
        await expect(environmentRow(page, envName)).toContainText(envSlug);
      }
      const { workspace } = await service(endpoints["projects.get"], { params: { workspaceId: projectId } });
      expect(workspace).toMatchObject({ name, slug });
      expect(workspace.environments.map((e) => e.slug)).toEqual(["dev", "staging", "prod"]);

      const settings = page.getByRole("region", { name: "Settings" });
      await settings.getByRole("button", { name: "Delete project" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Delete project" });
      await expect(confirm.getByRole("button", { name: "Delete project" })).toBeDisabled();
      await confirm.getByLabel(/Type .* to confirm/).fill(slug);
      await confirm.getByRole("button", { name: "Delete project" }).click();
      await expect(page).toHaveURL(/\/projects$/);
      await expect(page.getByRole("link", { name })).toHaveCount(0);
      expect((await throughBff(page, `/api/v1/workspace/${projectId}`)).status).toBe(404);
    } finally {
      await ignoreNotFound(service(endpoints["projects.delete"], { params: { workspaceId: projectId } }));
    }
  });

  test("renames the project in its settings; the description where the server keeps one", { tag: "@live" }, async ({
    signedIn: page,
    service,
    seededProject,
  }) => {
    const newName = uniqueName("Renamed");
    // A project read through the BFF tells it whether this server keeps descriptions; the answer
    // says so, and the page follows without a reload.
    await page.goto(`/projects/${seededProject.id}`);
    await expect(page.getByRole("heading", { level: 1, name: seededProject.name })).toBeVisible();
    const settings = page.getByRole("region", { name: "Settings" });
    await settings.getByLabel("Name").fill(newName);
    const description = settings.getByLabel("Description");
    if (server === "2024") {
      await expect(description).toBeDisabled();
      await expect(description).toHaveAccessibleDescription(
        "Not available: This server does not keep project descriptions.",
      );
    } else {
      await description.fill("Described by the live suite");
    }
    await settings.getByRole("button", { name: "Save settings" }).click();

    await expect(page.getByRole("status").filter({ hasText: "Project settings saved" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: newName })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText(newName);
    const { workspace } = await service(endpoints["projects.get"], { params: { workspaceId: seededProject.id } });
    expect(workspace.name).toBe(newName);
    if (server !== "2024") expect(workspace.description).toBe("Described by the live suite");
  });

  test("adds, renames and deletes an environment", { tag: "@live" }, async ({
    signedIn: page,
    service,
    seededProject,
  }) => {
    const params = { workspaceId: seededProject.id };
    const environmentsNow = async () =>
      (await service(endpoints["projects.get"], { params })).workspace.environments.map((e) => [e.name, e.slug]);
    await page.goto(`/projects/${seededProject.id}`);
    const table = page.getByRole("table", { name: "Environments" });

    await page.getByRole("button", { name: "Add environment" }).click();
    const add = page.getByRole("dialog", { name: "Add environment" });
    await add.getByLabel("Name").fill("QA Europe");
    await expect(add.getByLabel("Slug")).toHaveValue("qa-europe");
    await add.getByRole("button", { name: "Add environment" }).click();
    await expect(add).toBeHidden();
    await expect(environmentRow(page, "QA Europe")).toContainText("qa-europe");
    await expect.poll(environmentsNow).toContainEqual(["QA Europe", "qa-europe"]);

    await table.getByRole("button", { name: "Rename QA Europe" }).click();
    const rename = page.getByRole("dialog", { name: "Rename environment" });
    await rename.getByLabel("Name").fill("Quality");
    await rename.getByLabel("Slug").fill("quality");
    await rename.getByRole("button", { name: "Save" }).click();
    await expect(rename).toBeHidden();
    await expect(environmentRow(page, "Quality")).toContainText("quality");
    await expect.poll(environmentsNow).toContainEqual(["Quality", "quality"]);

    await table.getByRole("button", { name: "Delete Quality" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete environment" });
    await confirm.getByRole("button", { name: "Delete environment" }).click();
    await expect(confirm).toBeHidden();
    await expect(environmentRow(page, "Quality")).toHaveCount(0);
    expect(await environmentsNow()).toEqual(DEFAULT_ENVIRONMENTS.map(([name, slug]) => [name, slug]));
  });

  test("shows the not-found page for a project that does not exist", { tag: "@live" }, async ({ signedIn: page }) => {
    await page.goto("/projects/00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  });

  test("a project viewer cannot add an environment: the console says why, or shows the server's refusal", {
    tag: "@live",
  }, async ({ page, service, memberIdentity, seededProject }) => {
    await signInAsMember(page, service, seededProject, memberIdentity.identity.id, "viewer");

    await page.goto(`/projects/${seededProject.id}`);
    await expect(page.getByRole("heading", { level: 1, name: seededProject.name })).toBeVisible();
    const add = page.getByRole("button", { name: "Add environment" });
    if (server === "keyhold") {
      // Our service tells an identity its own rules, so the control is inert and says why.
      await expect(add).toHaveAttribute("aria-disabled", "true");
      await expect(add).toHaveAccessibleDescription(/do not include .*create.* on environments/i);
    } else {
      // Infisical reports one's own rules to users only (its permissions route refuses identities),
      // so the server judges: its refusal shows in the dialog, and nothing is added.
      await add.click();
      const dialog = page.getByRole("dialog", { name: "Add environment" });
      await dialog.getByLabel("Name").fill("Viewer Made");
      await dialog.getByRole("button", { name: "Add environment" }).click();
      await expect(dialog.getByRole("alert")).toContainText(
        /^You don't have permission\. .*Missing permission: create on environments/,
      );
      await expect(dialog).toBeVisible();
    }
    const { workspace } = await service(endpoints["projects.get"], { params: { workspaceId: seededProject.id } });
    expect(workspace.environments.map((e) => e.slug)).toEqual(["dev", "staging", "prod"]);
  });
});

test.describe("project roles", () => {
  test("lists the built-in roles", { tag: "@live" }, async ({ signedIn: page, seededProject }) => {
    await page.goto(`/projects/${seededProject.id}/roles`);
    const builtIn = page.getByRole("table", { name: "Built-in roles" });
    for (const name of ["Admin", "Viewer"]) await expect(builtIn.getByRole("link", { name })).toBeVisible();
    await builtIn.getByRole("link", { name: "Viewer" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Viewer" })).toBeVisible();
    await expect(page.getByRole("note")).toContainText("Built-in roles cannot be changed.");
  });

  test("creates, edits and deletes a custom role through the builder, or shows the plan's refusal", {
    tag: "@live",
  }, async ({ signedIn: page, seededProject }) => {
    const projectId = seededProject.id;
    const roleName = `Live Reader ${uniqueName("r").slice(2)}`;
    const roleSlug = roleName.toLowerCase().replaceAll(" ", "-");
    await page.goto(`/projects/${projectId}/roles`);
    await page.getByRole("button", { name: "Create role" }).click();
    const dialog = page.getByRole("dialog", { name: "Create role" });
    await dialog.getByLabel("Name").fill(roleName);
    await expect(dialog.getByLabel("Slug")).toHaveValue(roleSlug);
    await dialog.getByRole("button", { name: "Create role" }).click();

    if (server === "2026") {
      // The free plan of current servers refuses custom roles: the dialog says so and stays open.
      await expect(dialog.getByRole("alert")).toContainText(
        /^Could not save the role\. .*plan.*Upgrade to Infisical Enterprise plan to create custom roles/,
      );
      await expect(dialog).toBeVisible();
      expect(await customRoleSlugs(page, projectId)).toEqual([]);
      return;
    }

    await expect(page.getByRole("heading", { level: 1, name: roleName })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/roles/${roleSlug}$`));
    const readRole = async (slug: string) =>
      throughBff<{ role: ProjectRole }>(page, `/api/v2/workspace/${projectId}/roles/slug/${slug}`);

    // The builder offers the actions this server knows: the split secret reads (describe, read
    // value) came after 2024, whose server refuses a rule that names them.
    const secrets = page.getByRole("group", { name: "Secrets", exact: true });
    await expect(secrets.getByRole("checkbox", { name: "Read value" })).toHaveCount(server === "2024" ? 0 : 1);
    await secrets.getByRole("checkbox", { name: "Read", exact: true }).check();
    await secrets.getByRole("checkbox", { name: "Edit" }).check();
    await page.getByRole("button", { name: "Save permissions" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Save permissions" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Permissions saved" })).toBeVisible();
    const saved = (await readRole(roleSlug)).body.role;
    expect(saved.permissions).toEqual([
      expect.objectContaining({ subject: "secrets", action: expect.arrayContaining(["read", "edit"]) }),
    ]);

    const newSlug = uniqueName("live-lead");
    await editRoleDetails(page, "Live Lead", newSlug);
    expect((await readRole(newSlug)).body.role).toMatchObject({ id: saved.id, name: "Live Lead" });

    await page.goto(`/projects/${projectId}/roles`);
    await page.getByRole("table", { name: "Custom roles" }).getByRole("button", { name: "Delete Live Lead" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete role" });
    await expect(confirm).toContainText(newSlug);
    await confirm.getByRole("button", { name: "Delete role" }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText("No custom roles yet")).toBeVisible();
    expect(await customRoleSlugs(page, projectId)).toEqual([]);
    if (server === "keyhold") expect((await readRole(newSlug)).status).toBe(404);
  });
});

test.describe("project access", () => {
  /** By slug: servers name the built-in member role differently ("Developer" on Infisical). */
  async function chooseRole(dialog: Locator, label: string, slug: string) {
    await dialog.getByRole("combobox", { name: label, exact: true }).selectOption(slug);
  }

  test("adds an identity with a permanent and a temporary role whose countdown runs, changes its roles and removes it", {
    tag: "@live",
  }, async ({ signedIn: page, service, seededProject, memberIdentity }) => {
    const identity = memberIdentity.identity;
    const projectId = seededProject.id;
    const stored = async () =>
      (await service(endpoints["identityMemberships.get"], { params: { projectId, identityId: identity.id } }))
        .identityMembership.roles;

    await openAccess(page, seededProject);
    await page.getByRole("button", { name: "Add identity" }).click();
    const add = await chooseIdentity(page, identity.name);
    // Current servers want at least one permanent role beside a temporary one.
    await chooseRole(add, "Role", "member");
    await add.getByRole("button", { name: "Add another role" }).click();
    await chooseRole(add, "Role 2", "viewer");
    await add.getByRole("switch", { name: "Temporary role" }).nth(1).click();
    await add.getByRole("button", { name: "1h", exact: true }).click();
    await expect(add.getByTestId("temporary-end-preview")).toContainText("1 hour from now");
    await add.getByRole("button", { name: "Add identity" }).click();
    await expect(add).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: "Identity added" })).toBeVisible();
    const row = identityRow(page, identity.name);
    await expect(row).toContainText("Viewer");
    // The countdown ticks on its own.
    const countdown = row.locator("time").first();
    await expect(countdown).toHaveText(/^(59m|1h 00m) \d\ds/);
    const first = await countdown.textContent();
    await expect(countdown).not.toHaveText(first ?? "");
    const roles = await stored();
    expect(roles).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ role: "member", isTemporary: false }),
        expect.objectContaining({ role: "viewer", isTemporary: true, temporaryMode: "relative", temporaryRange: "1h" }),
      ]),
    );

    // The temporary viewer becomes a permanent admin.
    await row.getByRole("button", { name: `Edit roles of ${identity.name}` }).click();
    const edit = page.getByRole("dialog", { name: `Edit roles of ${identity.name}` });
    // The form lists the roles in the server's order, which an October 2024 server does not keep
    // from one read to the next: the viewer's place is read from the form.
    await expect(edit.getByLabel("Role 2", { exact: true })).toBeVisible();
    const chosen = await edit
      .getByLabel(/^Role \d+$/)
      .evaluateAll((fields) => fields.map((field) => (field as HTMLSelectElement).value));
    const viewer = chosen.indexOf("viewer");
    expect(viewer).toBeGreaterThanOrEqual(0);
    const temporarySwitch = edit.getByRole("switch", { name: "Temporary role" }).nth(viewer);
    await expect(temporarySwitch).toBeChecked();
    await expect(edit.getByLabel(`Role ${viewer + 1}`, { exact: true })).toHaveValue("viewer");
    await chooseRole(edit, `Role ${viewer + 1}`, "admin");
    await temporarySwitch.click();
    await edit.getByRole("button", { name: "Save roles" }).click();
    await expect(edit).toBeHidden();
    await expect(row).toContainText("Admin");
    expect(await stored()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ role: "admin", isTemporary: false }),
        expect.objectContaining({ role: "member", isTemporary: false }),
      ]),
    );

    await row.getByRole("button", { name: `Remove ${identity.name}` }).click();
    const confirm = page.getByRole("alertdialog", { name: `Remove ${identity.name} from this project?` });
    await confirm.getByRole("button", { name: "Remove identity" }).click();
    await expect(confirm).toBeHidden();
    await expect(identityRow(page, identity.name)).toHaveCount(0);
    await expect(stored()).rejects.toMatchObject({ status: 404 });
  });

  test("gives an identity a permanent and a temporary additional privilege and deletes them, where the server has them", {
    tag: "@live",
  }, async ({ signedIn: page, service, seededProject, memberIdentity }) => {
    const identity = memberIdentity.identity;
    const projectId = seededProject.id;
    await service(endpoints["identityMemberships.add"], {
      params: { projectId, identityId: identity.id },
      body: { roles: [{ role: "viewer", isTemporary: false }] },
    });
    await page.goto(`/projects/${projectId}/access?identity=${identity.id}`);
    const section = page.getByRole("region", { name: `Additional privileges of ${identity.name}` });

    if (server === "2024") {
      await expect(section).toContainText(
        "Not available: This server has only the older, slug-addressed identity privileges.",
      );
      await expect(section.getByRole("button", { name: "Add privilege" })).toHaveCount(0);
      return;
    }

    await expect(section.getByText("No additional privileges.")).toBeVisible();
    const addPrivilege = async (slug: string, temporary: boolean) => {
      await section.getByRole("button", { name: "Add privilege" }).click();
      const dialog = page.getByRole("dialog", { name: "Add privilege" });
      await dialog.getByLabel("Name").fill(slug);
      if (temporary) {
        await dialog.getByRole("switch", { name: "Temporary privilege" }).click();
        await dialog.getByRole("textbox", { name: "Duration" }).fill("1h");
      }
      await dialog
        .getByRole("group", { name: "Environments", exact: true })
        .getByRole("checkbox", { name: "Read", exact: true })
        .check();
      await dialog.getByRole("button", { name: "Add privilege" }).click();
      await expect(dialog).toBeHidden();
    };
    await addPrivilege("env-reader", false);
    await addPrivilege("env-reader-briefly", true);
    await expect(section.getByRole("row").filter({ hasText: "env-reader-briefly" })).toContainText(
      /Ends in\s*(59m|1h 00m)/,
    );
    await expect(section.getByRole("row").filter({ hasText: /env-reader(?!-)/ })).toContainText("Permanent");

    const listed = async () =>
      (
        await service(endpoints["identityPrivileges.list"], { query: { projectId, identityId: identity.id } })
      ).privileges.map((p) => [p.slug, p.isTemporary]);
    expect((await listed()).sort()).toEqual([
      ["env-reader", false],
      ["env-reader-briefly", true],
    ]);

    for (const slug of ["env-reader", "env-reader-briefly"]) {
      await section.getByRole("button", { name: `Delete privilege ${slug}`, exact: true }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Delete privilege" }).click();
      await expect(page.getByRole("alertdialog")).toBeHidden();
    }
    await expect(section.getByText("No additional privileges.")).toBeVisible();
    expect(await listed()).toEqual([]);
  });

  test("shows an identity's effective access with its additional privilege counted, on every server line", {
    tag: "@live",
  }, async ({ signedIn: page, service, seededProject, memberIdentity }) => {
    const identity = memberIdentity.identity;
    const projectId = seededProject.id;
    await service(endpoints["identityMemberships.add"], {
      params: { projectId, identityId: identity.id },
      body: { roles: [{ role: "no-access", isTemporary: false }] },
    });
    // The v1 route by project slug: every line has it (2024 servers have no other).
    const slug = uniqueName("prod-reader");
    await service(endpoints["identityPrivileges.createPermanentV1"], {
      body: {
        identityId: identity.id,
        projectSlug: seededProject.slug,
        slug,
        privilegePermission: { actions: ["read"], subject: "secrets", conditions: { environment: "prod" } },
      },
    });
    await page.goto(`/projects/${projectId}/access?identity=${identity.id}`);
    await page
      .getByRole("region", { name: `Additional privileges of ${identity.name}` })
      .getByRole("button", { name: "Effective access" })
      .click();
    const dialog = page.getByRole("dialog", { name: `Effective access of ${identity.name}` });
    // The privilege is read (on 2024 through the older list) and decides prod; no-access decides nothing.
    await expect(dialog.getByRole("list", { name: "Rules deciding in prod" })).toContainText(slug);
    await expect(dialog.getByRole("list", { name: "Rules deciding in dev" })).toHaveCount(0);
    await expect(dialog.getByRole("note")).toHaveCount(0);
    await expect(dialog.getByRole("alert")).toHaveCount(0);
  });
});
