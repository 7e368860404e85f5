import { loadRecordings } from "@keyhold/fixtures";
import { projectPermissionActions } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import { expect, test as base } from "../support/fixtures.ts";
import { sampleSets } from "../support/global-setup.ts";

/**
 * The console against replays of real Infisical servers (responses recorded from an October 2024
 * and a mid-2026 server): every page that exists shows the recorded data, or says clearly what
 * this server does not have, with no page error and no 5xx. Each page added to the console is
 * walked here too.
 */

interface Recorded {
  status: number;
  body: unknown;
}

function recording(folder: string, prefix: string): Recorded {
  const found = loadRecordings(folder).find((r) => r.file.startsWith(prefix));
  if (!found) throw new Error(`no recording ${prefix} in ${folder}`);
  return found;
}

function fileNames(folder: string): string[] {
  return loadRecordings(folder).map((r) => r.file);
}

/** A token for the recorded identity; the replay, like any server, is only asked who it is. */
function tokenFor(identityId: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const claims = { identityId, identityAccessTokenId: "replay", authTokenType: "identityAccessToken" };
  return `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}.replay`;
}

/** A page that fails its test on any page error or any 5xx answer. */
const test = base.extend<{ watched: Page }>({
  watched: async ({ page }, use) => {
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("response", (response) => {
      if (response.status() >= 500) problems.push(`${response.status()} ${response.url()}`);
    });
    await use(page);
    expect(problems).toEqual([]);
  },
});

type Membership = {
  identityId: string;
  identity: { name: string; authMethod?: string | null; authMethods?: string[] };
};

for (const [year, folder] of Object.entries(sampleSets)) {
  test.describe(`against a replayed ${year} server`, () => {
    const detail = (recording(folder, "004-").body as { identity: Membership }).identity;
    const list = (recording(folder, "001-").body as { identities: Membership[] }).identities;
    const older = year === "2024";

    const origin = () => process.env[`KEYHOLD_E2E_REPLAY_${year}_URL`] ?? "";
    const signIn = async (page: Page) => {
      await page.goto(`${origin()}/sign-in`);
      await page.getByLabel("Access token").fill(tokenFor(detail.identityId));
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
    };

    test("signs in with the recorded identity and lists the recorded identities with their auth methods", async ({
      watched: page,
    }) => {
      await signIn(page);
      const table = page.getByRole("table", { name: "Identities" });
      for (const member of list.slice(0, 3)) {
        await expect(table.getByRole("link", { name: member.identity.name, exact: true })).toBeVisible();
      }
      const withMethod = list.find((m) => (m.identity.authMethods?.length ?? 0) > 0 || m.identity.authMethod);
      expect(withMethod).toBeDefined();
      const row = table.getByRole("row").filter({ has: page.getByRole("link", { name: withMethod?.identity.name }) });
      await expect(row).toContainText(/Token|Universal|Kubernetes|OIDC|AWS/);
      // A 2024 server has no delete protection: the column is left out rather than shown empty.
      await expect(table.getByRole("columnheader", { name: "Delete protection" })).toHaveCount(older ? 0 : 1);
    });

    test("searches and pages the recorded identities (from the listing, the search route being missing)", async ({
      watched: page,
    }) => {
      await signIn(page);
      const pagination = page.getByRole("navigation", { name: "Pagination" });
      await expect(pagination).toContainText(`1–${Math.min(list.length, 20)} of ${list.length}`);
      if (list.length > 20) {
        await pagination.getByRole("link", { name: "Next page" }).click();
        await expect(pagination).toContainText(`21–${list.length} of ${list.length}`);
      }
      const matching = list.filter((m) => m.identity.name.includes("bar-")).map((m) => m.identity.name);
      await page.getByRole("searchbox", { name: "Search identities" }).fill("bar-");
      await expect(pagination).toContainText(`1–${matching.length} of ${matching.length}`);
      await expect(page.getByRole("table", { name: "Identities" }).getByRole("link")).toHaveText(
        matching.sort((a, b) => a.localeCompare(b)),
      );
    });

    test("shows the recorded identity, and what this server does not support", async ({ watched: page }) => {
      await signIn(page);
      await page.goto(`${origin()}/identities/${detail.identityId}`);
      await expect(page.getByRole("heading", { level: 1, name: detail.identity.name })).toBeVisible();
      await expect(page.getByText("platform")).toBeVisible();
      if (older) {
        await expect(page.getByText(/Not available: This server does not support delete protection/)).toBeVisible();
        await page.getByRole("link", { name: "Edit" }).first().click();
        await expect(page.getByRole("switch", { name: "Delete protection" })).toBeDisabled();
      } else {
        await expect(page.getByText(/Not available/)).toHaveCount(0);
      }
    });

    test("shows the projects the recorded identity belongs to, with a temporary role", async ({ watched: page }) => {
      type Recorded = { project: { name: string }; roles: { customRoleName?: string | null; isTemporary: boolean }[] };
      const [membership] = (recording(folder, older ? "076-" : "087-").body as { identityMemberships: Recorded[] })
        .identityMemberships;
      await signIn(page);
      await page.goto(`${origin()}/identities/${detail.identityId}`);
      const section = page.getByRole("region", { name: "Project memberships" });
      const row = section.getByRole("row").filter({ has: page.getByRole("link", { name: membership?.project.name }) });
      await expect(row).toContainText("Member");
      await expect(row).toContainText(membership?.roles.find((r) => r.isTemporary)?.customRoleName ?? "");
      await expect(row).toContainText(/Temporary/);
      await expect(section.getByRole("alert")).toHaveCount(0);
    });

    test("shows the recorded identity's auth methods, and opens a method's form", async ({ watched: page }) => {
      await signIn(page);
      await page.goto(`${origin()}/identities/${detail.identityId}`);
      const section = page.getByRole("region", { name: "Auth methods" });
      await expect(section.getByRole("heading", { level: 3 })).toHaveCount(5);
      // The recorded identity has none: every method reads "Not attached", none an error.
      await expect(section.getByText("Not attached")).toHaveCount(5);
      await expect(section.getByRole("alert")).toHaveCount(0);
      await section.getByRole("button", { name: "Attach Kubernetes auth" }).click();
      const dialog = page.getByRole("dialog", { name: "Attach Kubernetes auth" });
      await expect(dialog.getByLabel("Kubernetes host")).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
    });

    test("walks every other page without an error", async ({ watched: page }) => {
      await signIn(page);
      await page.goto(`${origin()}/projects`);
      await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
      await expect(page.getByRole("alert")).toHaveCount(0);
    });

    test("tells the recorded identity, an org member, why it cannot use the organisation's settings", async ({
      watched: page,
    }) => {
      await signIn(page);
      await page.goto(`${origin()}/settings`);
      await expect(page.getByRole("heading", { level: 1, name: "Organization settings" })).toBeVisible();
      const note = page.getByRole("note").filter({ hasText: "Only organization admins can use these settings" });
      await expect(note).toContainText(
        `You are signed in as ${detail.identity.name}, whose organization role is member.`,
      );
      await expect(page.getByRole("button", { name: "Verify now" })).toHaveCount(0);
      await expect(page.getByRole("alert")).toHaveCount(0);
    });

    test("lists the recorded projects and shows one with its environments, and what this server lacks", async ({
      watched: page,
    }) => {
      type Recorded = { id: string; name: string; environments: { name: string; slug: string }[] };
      // The replay answers the list with its first successful recording: a 2024 server refused
      // identity tokens there (049 is a 403), so its list is the one recorded with a user's JWT.
      const listed = (recording(folder, older ? "050-" : "049-").body as { workspaces: Recorded[] }).workspaces;
      const project = (recording(folder, "052-").body as { workspace: Recorded }).workspace;
      await signIn(page);

      await page.goto(`${origin()}/projects`);
      const table = page.getByRole("table", { name: "Projects" });
      for (const recorded of listed.slice(0, 3)) {
        await expect(table.getByRole("link", { name: recorded.name, exact: true }).first()).toBeVisible();
      }
      await expect(page.getByRole("alert")).toHaveCount(0);

      await page.goto(`${origin()}/projects/${project.id}`);
      await expect(page.getByRole("heading", { level: 1, name: project.name })).toBeVisible();
      const environments = page.getByRole("table", { name: "Environments" });
      for (const env of project.environments) {
        await expect(environments.getByRole("row").filter({ hasText: env.name })).toContainText(env.slug);
      }
      const settings = page.getByRole("region", { name: "Settings" });
      if (older) {
        await expect(page.getByText("Not available: This server does not support delete protection.")).toHaveCount(2);
        await expect(settings.getByRole("switch", { name: "Delete protection" })).toBeDisabled();
      } else {
        await expect(page.getByText(/Not available/)).toHaveCount(0);
        await expect(settings.getByRole("switch", { name: "Delete protection" })).toBeEnabled();
      }
    });

    test("lists the recorded project's roles, a custom role's rules in the builder and as JSON, and admin's unknown subjects", async ({
      watched: page,
    }) => {
      type Role = { name: string; slug: string };
      const roleList = fileNames(folder).find((name) => /-project-roles-list\.json$/.test(name)) ?? "";
      const roles = (recording(folder, roleList.slice(0, 4)).body as { roles: Role[] }).roles;
      const projectId = (recording(folder, "052-").body as { workspace: { id: string } }).workspace.id;
      const builtInAdmin = (
        fileNames(folder).find((name) => name.endsWith("-project-roles-get-by-slug-builtin.json")) ?? ""
      ).slice(0, 4);
      await signIn(page);

      await page.goto(`${origin()}/projects/${projectId}/roles`);
      await expect(page.getByRole("heading", { level: 1, name: "Roles" })).toBeVisible();
      const builtIn = page.getByRole("table", { name: "Built-in roles" });
      const custom = page.getByRole("table", { name: "Custom roles" });
      for (const role of roles) {
        const table = ["admin", "member", "viewer", "no-access"].includes(role.slug) ? builtIn : custom;
        await expect(table.getByRole("row").filter({ hasText: role.slug })).toContainText(role.name);
      }
      await expect(page.getByRole("alert")).toHaveCount(0);

      // The recorded custom role reads secrets in dev under any path (by slug: v1 paths on both servers).
      await custom.getByRole("link", { name: "Secret Reader" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Secret Reader" })).toBeVisible();
      const secrets = page.getByRole("group", { name: "Secrets", exact: true });
      await expect(secrets.getByRole("checkbox", { name: "Read", exact: true }).first()).toBeChecked();
      await expect(secrets.getByRole("textbox", { name: /condition \d: value/ }).first()).toHaveValue(/^(\/\*\*|dev)$/);
      await page.getByRole("tab", { name: "JSON" }).click();
      const json = page.getByRole("region", { name: "Permission rules as JSON" });
      await expect(json).toContainText('"environment": "dev"');
      await expect(json).toContainText('"$glob": "/**"');
      await expect(page.getByRole("alert")).toHaveCount(0);

      // The recorded admin role grants subjects this console does not edit: they are listed, kept as they are.
      const admin = (recording(folder, builtInAdmin).body as { role: { permissions: { subject: string }[] } }).role;
      const unknown = [...new Set(admin.permissions.map((rule) => rule.subject))].filter(
        (subject) => !Object.hasOwn(projectPermissionActions, subject),
      );
      expect(unknown.length).toBeGreaterThan(0);
      await page.goto(`${origin()}/projects/${projectId}/roles/admin`);
      await expect(page.getByRole("heading", { level: 1, name: "Admin" })).toBeVisible();
      await expect(page.getByRole("note")).toContainText("Built-in roles cannot be changed.");
      for (const subject of unknown)
        await expect(page.getByRole("listitem").filter({ hasText: subject }).first()).toBeVisible();
      await expect(page.getByRole("alert")).toHaveCount(0);
    });

    test("shows the recorded project's identities with their roles and privileges on the access page", async ({
      watched: page,
    }) => {
      type Listed = { identityId: string; identity: { name: string }; roles: { role: string }[] };
      const listFile = fileNames(folder).find((name) => name.endsWith("-identity-memberships-list.json")) ?? "";
      const listed = recording(folder, listFile.slice(0, 4)).body as { identityMemberships: Listed[] };
      const projectId = (recording(folder, "052-").body as { workspace: { id: string } }).workspace.id;
      await signIn(page);

      await page.goto(`${origin()}/projects/${projectId}/access`);
      await expect(page.getByRole("heading", { level: 1, name: "Access" })).toBeVisible();
      const table = page.getByRole("table", { name: "Project identities" });
      for (const member of listed.identityMemberships) {
        const row = table.getByRole("row").filter({ hasText: member.identity.name });
        for (const { role } of member.roles) await expect(row).toContainText(new RegExp(role, "i"));
      }
      await expect(page.getByRole("alert")).toHaveCount(0);

      // The recorded privileges belong to the second identity (2026); a 2024 server has no v2 list.
      const member = listed.identityMemberships[1];
      await page.getByRole("button", { name: `Privileges of ${member?.identity.name}` }).click();
      const privileges = page.getByRole("region", { name: `Additional privileges of ${member?.identity.name}` });
      if (older) {
        await expect(privileges.getByText(/^Not available: /)).toBeVisible();
      } else {
        const recorded = (recording(folder, "100-").body as { privileges: { slug: string }[] }).privileges;
        const table = privileges.getByRole("table");
        for (const { slug } of recorded)
          await expect(table.getByRole("cell", { name: slug, exact: true })).toBeVisible();
        await expect(table.getByText("Expired").first()).toBeVisible();
      }

      await page.getByRole("tab", { name: "Users" }).click();
      await expect(page.getByRole("heading", { name: "No users in this project" })).toBeVisible();
      await expect(page.getByRole("alert")).toHaveCount(0);
    });

    test("shows the recorded project's secrets masked, with their folders, in each environment", async ({
      watched: page,
    }) => {
      type Listed = { secretKey: string; secretComment: string };
      const named = (call: string) =>
        (fileNames(folder).find((name) => name.slice(4) === `${call}.json`) ?? "").slice(0, 4);
      const secrets = (recording(folder, named("secrets-list")).body as { secrets: Listed[] }).secrets;
      const folders = (recording(folder, named("folders-list")).body as { folders: { name: string }[] }).folders;
      const projectId = (recording(folder, "052-").body as { workspace: { id: string } }).workspace.id;
      expect(secrets.length).toBeGreaterThan(0);
      await signIn(page);

      await page.goto(`${origin()}/projects/${projectId}/secrets`);
      await expect(page.getByRole("heading", { level: 1, name: "Secrets" })).toBeVisible();
      const table = page.getByRole("table", { name: "Secrets" });
      for (const secret of secrets) {
        const row = table
          .getByRole("row")
          .filter({ has: page.getByRole("button", { name: `Open ${secret.secretKey}` }) });
        await expect(row).toContainText(secret.secretComment);
        await expect(row.getByText("Value masked")).toBeAttached();
      }
      await expect(page.getByRole("status").filter({ hasText: "secret" })).toHaveText(
        `${secrets.length} ${secrets.length === 1 ? "secret" : "secrets"}`,
      );
      const folderList = page.getByRole("region", { name: "Folders" });
      for (const { name } of folders) await expect(folderList.getByRole("link", { name, exact: true })).toBeVisible();
      await expect(page.getByRole("alert")).toHaveCount(0);

      await page.getByRole("navigation", { name: "Environments" }).getByRole("link", { name: "Production" }).click();
      await expect(page).toHaveURL(/env=prod/);
      await expect(table.getByRole("row")).toHaveCount(secrets.length + 1);
      await folderList.getByRole("link", { name: folders[0]?.name ?? "", exact: true }).click();
      await expect(page.getByRole("navigation", { name: "Folder path" })).toContainText(folders[0]?.name ?? "");
      await expect(page.getByRole("alert")).toHaveCount(0);
    });

    test("shows the recorded folder's imports in order, and says the server did not list the keys they provide", async ({
      watched: page,
    }) => {
      type Listed = { position: number; importPath: string; importEnv: { slug: string } };
      const listFile = fileNames(folder).find((name) => name.endsWith("-secret-imports-list.json")) ?? "";
      const listed = (recording(folder, listFile.slice(0, 4)).body as { secretImports: Listed[] }).secretImports;
      const projectId = (recording(folder, "052-").body as { workspace: { id: string } }).workspace.id;
      await signIn(page);

      await page.goto(`${origin()}/projects/${projectId}/secret-imports?environment=dev`);
      await expect(page.getByRole("heading", { level: 1, name: "Secret imports" })).toBeVisible();
      const list = page.getByRole("list", { name: "Imports of dev:/" });
      const handles = list.getByRole("button", { name: /^Reorder / });
      await expect(handles).toHaveCount(listed.length);
      for (const [index, recorded] of listed.entries()) {
        const label = `${recorded.importEnv.slug}:${recorded.importPath}`;
        await expect(handles.nth(index)).toHaveAccessibleName(
          `Reorder ${label}, position ${recorded.position} of ${listed.length}`,
        );
      }
      // The recorded folders of dev:/ are one click away.
      const folders = (recording(folder, older ? "091-" : "106-").body as { folders: { name: string }[] }).folders;
      const nav = page.getByRole("navigation", { name: "Folders in dev:/" });
      for (const { name } of folders) await expect(nav.getByRole("button", { name })).toBeVisible();
      // The recorded secrets list (without include_imports) names no import: nothing is invented.
      await expect(list.getByText("The server did not report this import's keys.")).toHaveCount(listed.length);
      await expect(page.getByRole("alert")).toHaveCount(0);
    });

    test("shows the recorded project's integrations (none) with where they come from", async ({ watched: page }) => {
      const listFile = fileNames(folder).find((name) => name.endsWith("-integrations-list.json")) ?? "";
      const listed = (recording(folder, listFile.slice(0, 4)).body as { integrations: unknown[] }).integrations;
      expect(listed).toEqual([]);
      const projectId = (recording(folder, "052-").body as { workspace: { id: string } }).workspace.id;
      await signIn(page);

      await page.goto(`${origin()}/projects/${projectId}/integrations`);
      await expect(page.getByRole("heading", { level: 1, name: "Integrations" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "No integrations in this project" })).toBeVisible();
      await expect(page.getByRole("alert")).toHaveCount(0);
    });

    test("opens the recorded secret in the drawer, read with its comment and masked value, and its recorded versions", async ({
      watched: page,
    }) => {
      type Read = { secretKey: string; secretComment: string; environment: string };
      const named = (call: string) =>
        (fileNames(folder).find((name) => name.slice(4) === `${call}.json`) ?? "").slice(0, 4);
      const secret = (recording(folder, named("secrets-get")).body as { secret: Read }).secret;
      // The replay answers the versions with the recording made with a user's session (both servers refuse identity tokens there).
      const versions = (recording(folder, named("secret-versions-list-user-jwt")).body as { secretVersions: unknown[] })
        .secretVersions;
      const projectId = (recording(folder, "052-").body as { workspace: { id: string } }).workspace.id;
      await signIn(page);

      // Only this secret was read on its own, before it was renamed: the page opens it from its address.
      await page.goto(`${origin()}/projects/${projectId}/secrets?env=${secret.environment}&secret=${secret.secretKey}`);
      const drawer = page.getByRole("dialog", { name: secret.secretKey, exact: true });
      await expect(drawer.getByLabel("Name", { exact: true })).toHaveValue(secret.secretKey);
      await expect(drawer.getByLabel("Comment")).toHaveValue(secret.secretComment);
      await expect(drawer).not.toContainText("<redacted>");
      await drawer.getByRole("button", { name: "Reveal value" }).click();
      await expect(drawer.getByRole("textbox", { name: "Value" })).toHaveValue("<redacted>");
      // Neither server's tags were recorded: the picker says so in one line, without an alert.
      await expect(
        drawer.getByText("This server does not list the project's tags; the secret's own are shown."),
      ).toBeVisible();
      await expect(page.getByRole("alert")).toHaveCount(0);

      await drawer.getByRole("tab", { name: "Version history" }).click();
      const list = drawer.getByRole("list", { name: "Versions" });
      await expect(list.getByRole("button", { name: /^Version \d/ })).toHaveCount(versions.length);
      await expect(list.getByRole("button", { name: /^Version \d+ Current/ })).toHaveCount(1);
      await expect(page.getByRole("alert")).toHaveCount(0);
    });
  });
}
