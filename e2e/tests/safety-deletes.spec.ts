import { endpoints, type Project, type ProjectRole } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import { identityRow, openAccess } from "../support/access.ts";
import type { ServiceCall } from "../support/api.ts";
import { expect, test, uniqueName } from "../support/fixtures.ts";
import { methodRow } from "../support/identities.ts";
import { openSecrets, seedFolder, seedSecret } from "../support/secrets.ts";

/**
 * One rule for deletes: whatever takes other things with it (an environment or folder with
 * contents, a role in use, token auth with live tokens) names them with counts and asks for its
 * name; what takes nothing confirms plainly. Seeded through the API, checked back through it.
 */

function seedRole(service: ServiceCall, project: Project): Promise<ProjectRole> {
  return service(endpoints["projectRoles.create"], {
    params: { projectId: project.id },
    body: {
      name: "Auditor",
      slug: uniqueName("auditor"),
      permissions: [{ subject: "environments", action: ["read"] }],
    },
  }).then(({ role }) => role);
}

async function environmentSlugs(service: ServiceCall, project: Project) {
  const { workspace } = await service(endpoints["projects.get"], { params: { workspaceId: project.id } });
  return workspace.environments.map((env) => env.slug);
}

const typedName = (page: Page) => page.getByRole("alertdialog").getByRole("textbox", { name: /^Type .* to confirm$/ });

for (const theme of ["light", "dark"] as const) {
  test.describe(theme, () => {
    test.use({ colorScheme: theme });

    test("deleting an environment that holds secrets names them with counts and asks for its slug", async ({
      signedIn: page,
      service,
      seededProject: project,
    }) => {
      const prod = { environment: "prod" };
      await seedSecret(service, project, { ...prod, key: "DATABASE_URL", value: "postgres://db" });
      await seedSecret(service, project, { ...prod, key: "REDIS_URL", value: "redis://cache" });
      await seedFolder(service, project, "app", "/", "prod");
      await seedFolder(service, project, "db", "/app", "prod");
      await seedSecret(service, project, { ...prod, key: "API_KEY", value: "k", secretPath: "/app/db" });
      await service(endpoints["secretImports.create"], {
        body: { workspaceId: project.id, environment: "prod", path: "/app", import: { environment: "dev", path: "/" } },
      });

      await page.goto(`/projects/${project.id}`);
      await page
        .getByRole("table", { name: "Environments" })
        .getByRole("button", { name: "Delete Production" })
        .click();
      const confirm = page.getByRole("alertdialog", { name: "Delete environment" });
      await expect(confirm).toContainText("Deleted with it: 3 secrets, 2 folders and 1 import in prod.");
      const button = confirm.getByRole("button", { name: "Delete environment" });
      await expect(button).toBeDisabled();
      await confirm.getByRole("textbox", { name: "Type prod to confirm" }).fill("pro");
      await expect(button).toBeDisabled();
      await confirm.getByRole("textbox", { name: "Type prod to confirm" }).fill("prod");
      await button.click();

      await expect(confirm).toBeHidden();
      expect(await environmentSlugs(service, project)).toEqual(["dev", "staging"]);
    });

    test("deleting an empty environment, or a role nobody holds, confirms plainly", async ({
      signedIn: page,
      service,
      seededProject: project,
    }) => {
      await page.goto(`/projects/${project.id}`);
      await page.getByRole("table", { name: "Environments" }).getByRole("button", { name: "Delete Staging" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Delete environment" });
      await expect(confirm.getByRole("button", { name: "Delete environment" })).toBeEnabled();
      await expect(typedName(page)).toHaveCount(0);
      await confirm.getByRole("button", { name: "Delete environment" }).click();
      await expect(confirm).toBeHidden();
      expect(await environmentSlugs(service, project)).toEqual(["dev", "prod"]);

      const role = await seedRole(service, project);
      await page.goto(`/projects/${project.id}/roles`);
      await page.getByRole("table", { name: "Custom roles" }).getByRole("button", { name: "Delete Auditor" }).click();
      const roleConfirm = page.getByRole("alertdialog", { name: "Delete role" });
      await expect(roleConfirm.getByRole("button", { name: "Delete role" })).toBeEnabled();
      await expect(typedName(page)).toHaveCount(0);
      await roleConfirm.getByRole("button", { name: "Delete role" }).click();
      await expect(roleConfirm).toBeHidden();
      const { roles } = await service(endpoints["projectRoles.list"], { params: { projectId: project.id } });
      expect(roles.map((r) => r.slug)).not.toContain(role.slug);
    });

    test("a role in use says who holds it and asks for its slug", async ({
      signedIn: page,
      service,
      seededProject: project,
      seededIdentity,
    }) => {
      const role = await seedRole(service, project);
      await service(endpoints["identityMemberships.add"], {
        params: { projectId: project.id, identityId: seededIdentity.identity.id },
        body: { roles: [{ role: role.slug }] },
      });
      await page.goto(`/projects/${project.id}/roles/${role.slug}`);
      await page.getByRole("button", { name: "Delete role" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Delete role" });
      await expect(confirm).toContainText("In use by 1 identity.");
      await expect(confirm.getByRole("button", { name: "Delete role" })).toBeDisabled();
      await confirm.getByRole("textbox", { name: `Type ${role.slug} to confirm` }).fill(role.slug);
      await expect(confirm.getByRole("button", { name: "Delete role" })).toBeEnabled();
    });

    test("a folder with contents is deleted from the console with everything in it, after its name is typed", async ({
      signedIn: page,
      service,
      seededProject: project,
    }) => {
      await seedFolder(service, project, "app");
      await seedFolder(service, project, "api", "/app");
      await seedSecret(service, project, { key: "APP_NAME", value: "shop", secretPath: "/app" });
      await seedSecret(service, project, { key: "API_PORT", value: "8080", secretPath: "/app/api" });
      await seedFolder(service, project, "jobs");
      await openSecrets(page, project);

      const folders = page.getByRole("region", { name: "Folders" });
      await folders.getByRole("button", { name: "Delete folder app" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Delete folder app?" });
      await expect(confirm).toContainText("Deleted with it: 2 secrets and 1 folder inside /app.");
      await expect(confirm.getByRole("button", { name: "Delete folder" })).toBeDisabled();
      await confirm.getByRole("textbox", { name: "Type app to confirm" }).fill("app");
      await confirm.getByRole("button", { name: "Delete folder" }).click();

      await expect(confirm).toBeHidden();
      await expect(folders.getByRole("link", { name: "app", exact: true })).toHaveCount(0);
      const where = { workspaceId: project.id, environment: "dev" };
      const [{ folders: left }, { secrets }] = await Promise.all([
        service(endpoints["folders.list"], { query: { ...where, path: "/", recursive: "true" } }),
        service(endpoints["secrets.list"], { query: { ...where, secretPath: "/", recursive: "true" } }),
      ]);
      expect(left.map((folder) => folder.name)).toEqual(["jobs"]);
      expect(secrets).toEqual([]);

      // An empty folder takes nothing with it.
      await folders.getByRole("button", { name: "Delete folder jobs" }).click();
      const plain = page.getByRole("alertdialog", { name: "Delete folder jobs?" });
      await expect(plain).toContainText("The empty folder “jobs” will be deleted.");
      await expect(typedName(page)).toHaveCount(0);
      await plain.getByRole("button", { name: "Delete folder" }).click();
      // The folder list is outside the open confirmation's accessibility tree: wait for it to close.
      await expect(plain).toBeHidden();
      await expect(folders.getByRole("link", { name: "jobs", exact: true })).toHaveCount(0);
    });

    test("contents that cannot be counted are said so, and the name is asked for", async ({
      signedIn: page,
      seededProject: project,
    }) => {
      await page.route("**/api/v3/secrets/raw?*recursive=true*", (route) =>
        route.fulfill({
          status: 403,
          contentType: "application/json",
          body: JSON.stringify({ reqId: "r", statusCode: 403, error: "PermissionDenied", message: "Not allowed" }),
        }),
      );
      await page.goto(`/projects/${project.id}`);
      await page.getByRole("table", { name: "Environments" }).getByRole("button", { name: "Delete Staging" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Delete environment" });
      await expect(confirm).toContainText("What goes with it could not be counted");
      await expect(confirm.getByRole("button", { name: "Delete environment" })).toBeDisabled();
      await expect(confirm.getByRole("textbox", { name: "Type staging to confirm" })).toBeVisible();
    });

    test("removing an identity from a project names its additional privileges and asks for its name", async ({
      signedIn: page,
      service,
      seededProject: project,
      seededIdentity,
    }) => {
      const { id: identityId, name } = seededIdentity.identity;
      await service(endpoints["identityMemberships.add"], {
        params: { projectId: project.id, identityId },
        body: { roles: [{ role: "viewer" }] },
      });
      await service(endpoints["identityPrivileges.create"], {
        body: {
          identityId,
          projectId: project.id,
          slug: "read-dev",
          permissions: [{ subject: "environments", action: ["read"] }],
          type: { isTemporary: false },
        },
      });
      await openAccess(page, project);
      await identityRow(page, name)
        .getByRole("button", { name: `Remove ${name}` })
        .click();
      const confirm = page.getByRole("alertdialog", { name: `Remove ${name} from this project?` });
      await expect(confirm).toContainText("Deleted with it: 1 additional privilege.");
      await expect(confirm.getByRole("button", { name: "Remove identity" })).toBeDisabled();
      await confirm.getByRole("textbox", { name: `Type ${name} to confirm` }).fill(name);
      await confirm.getByRole("button", { name: "Remove identity" }).click();
      // The table is outside the open confirmation's accessibility tree: wait for it to close.
      await expect(confirm).toBeHidden();
      await expect(identityRow(page, name)).toHaveCount(0);
    });

    test("revoking token auth with a live token names it and asks for the method's name", async ({
      signedIn: page,
      service,
      seededIdentity,
    }) => {
      const identityId = seededIdentity.identity.id;
      await service(endpoints["tokenAuth.attach"], { params: { identityId }, body: {} });
      await service(endpoints["tokenAuth.createToken"], { params: { identityId }, body: { name: "deploy" } });
      await page.goto(`/identities/${identityId}`);
      const row = methodRow(page, "Token auth");
      await row.getByRole("button", { name: "Revoke Token auth" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Revoke Token auth?" });
      await expect(confirm).toContainText("Revoked with it: 1 live access token.");
      await expect(confirm.getByRole("button", { name: "Revoke" })).toBeDisabled();
      await confirm.getByRole("textbox", { name: "Type Token auth to confirm" }).fill("Token auth");
      await confirm.getByRole("button", { name: "Revoke" }).click();
      await expect(row.getByText("Not attached")).toBeVisible();
    });
  });
}
