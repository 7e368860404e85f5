import { endpoints, type Project } from "@keyhold/contract";
import type { Locator, Page } from "@playwright/test";
import { type ServiceCall, statusOf } from "../support/api.ts";
import { expect, server, test, uniqueName } from "../support/fixtures.ts";
import { openSecrets, readSecret, secretRow, seedFolder, seedSecret } from "../support/secrets.ts";

/**
 * The secrets area of the console against whichever server the suite runs on: the Keyhold service,
 * or a real Infisical server of the October 2024 or mid-2026 line. Each test seeds its own project
 * through the server's API (default environments) and deletes it afterwards; what the browser
 * changes is read back through the same API.
 */
const live = { tag: "@live" } as const;

async function openDrawer(page: Page, project: Project, key: string): Promise<Locator> {
  await openSecrets(page, project, "?env=dev");
  await page.getByRole("button", { name: `Open ${key}`, exact: true }).click();
  const drawer = page.getByRole("dialog", { name: key, exact: true });
  await expect(drawer.getByLabel("Name", { exact: true })).toHaveValue(key);
  return drawer;
}

test.describe("the secrets area", () => {
  test(
    "walks an environment's folders and masked secrets, a secret's drawer, the imports and the integrations",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      await seedFolder(service, project, "app");
      await seedSecret(service, project, { key: "WALK_DATABASE_URL", value: "postgres://walk/db", comment: "walk db" });
      await seedSecret(service, project, { key: "WALK_API_PORT", value: "8080", secretPath: "/app" });

      await openSecrets(page, project);
      const row = secretRow(page, "WALK_DATABASE_URL");
      await expect(row).toContainText("walk db");
      await expect(row.getByText("Value masked")).toBeAttached();
      await expect(page.getByText("postgres://walk/db")).toHaveCount(0);
      await row.getByRole("button", { name: "Reveal value of WALK_DATABASE_URL" }).click();
      await expect(row).toContainText("postgres://walk/db");
      await expect(page.getByRole("alert")).toHaveCount(0);

      // The drawer: name and comment read, the value masked until revealed.
      await row.getByRole("button", { name: "Open WALK_DATABASE_URL" }).click();
      const drawer = page.getByRole("dialog", { name: "WALK_DATABASE_URL", exact: true });
      await expect(drawer.getByLabel("Comment")).toHaveValue("walk db");
      await expect(drawer.getByRole("textbox", { name: "Value" })).toHaveCount(0);
      await drawer.getByRole("button", { name: "Reveal value" }).click();
      await expect(drawer.getByRole("textbox", { name: "Value" })).toHaveValue("postgres://walk/db");
      await page.keyboard.press("Escape");
      await expect(drawer).toBeHidden();

      // Into the folder: its own secret, and the path in the breadcrumbs.
      await page.getByRole("region", { name: "Folders" }).getByRole("link", { name: "app", exact: true }).click();
      await expect(secretRow(page, "WALK_API_PORT")).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Folder path" }).getByRole("link")).toHaveText(["dev", "app"]);

      await page.goto(`/projects/${project.id}/secret-imports?environment=dev`);
      await expect(page.getByRole("heading", { level: 1, name: "Secret imports" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "No imports in this folder" })).toBeVisible();

      await page.goto(`/projects/${project.id}/integrations`);
      await expect(page.getByRole("heading", { level: 1, name: "Integrations" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "No integrations in this project" })).toBeVisible();
      await expect(page.getByRole("alert")).toHaveCount(0);
    },
  );
});

test.describe("secrets", () => {
  test(
    "creates a secret with a comment and a tag in the dialog, listed masked, and reveals it",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      const { workspaceTag } = await service(endpoints["tags.create"], {
        params: { workspaceId: project.id },
        body: { slug: "backend", color: "#2f80ed" },
      });
      await openSecrets(page, project);
      await expect(page.getByRole("heading", { name: "No secrets in this folder" })).toBeVisible();
      await page.getByRole("button", { name: "Create secret" }).click();
      const dialog = page.getByRole("dialog", { name: "Create secret" });
      await dialog.getByLabel("Key").fill("API:KEY");
      await dialog.getByRole("button", { name: "Create secret" }).click();
      await expect(dialog.getByText("Secret names cannot contain a colon or a slash")).toBeVisible();
      await dialog.getByLabel("Key").fill("PAYMENTS_API_KEY");
      await dialog.getByLabel("Value").fill("sk_live_created_live");
      await dialog.getByLabel("Comment").fill("Stripe live key");
      await dialog.getByRole("checkbox", { name: "backend" }).check();
      await dialog.getByRole("button", { name: "Create secret" }).click();
      await expect(dialog).toBeHidden();

      const row = secretRow(page, "PAYMENTS_API_KEY");
      await expect(row).toContainText("Stripe live key");
      await expect(row).toContainText("backend");
      await expect(row.getByText("Value masked")).toBeAttached();
      await expect(page.getByText("sk_live_created_live")).toHaveCount(0);
      await row.getByRole("button", { name: "Reveal value of PAYMENTS_API_KEY" }).click();
      await expect(row).toContainText("sk_live_created_live");

      const saved = await readSecret(service, project, "PAYMENTS_API_KEY");
      expect(saved).toMatchObject({ secretValue: "sk_live_created_live", secretComment: "Stripe live key" });
      expect(saved.tags?.map((tag) => tag.id)).toEqual([workspaceTag.id]);
    },
  );

  test(
    "edits a secret's value and comment in the drawer",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      await seedSecret(service, project, { key: "LOG_LEVEL", value: "info", comment: "verbosity" });
      const drawer = await openDrawer(page, project, "LOG_LEVEL");
      await drawer.getByRole("button", { name: "Reveal value" }).click();
      const value = drawer.getByRole("textbox", { name: "Value" });
      await expect(value).toHaveValue("info");
      await value.fill("debug");
      await drawer.getByLabel("Comment").fill("verbosity while debugging");
      await drawer.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Secret saved" })).toBeVisible();
      await expect(drawer.getByText("Version 2")).toBeVisible();

      const saved = await readSecret(service, project, "LOG_LEVEL");
      expect(saved).toMatchObject({ secretValue: "debug", secretComment: "verbosity while debugging", version: 2 });
      await page.keyboard.press("Escape");
      await expect(secretRow(page, "LOG_LEVEL")).toContainText("verbosity while debugging");
    },
  );

  test(
    "edits a value inline from its row: Enter stages it, the bar saves it, Escape cancels",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      await seedSecret(service, project, { key: "CACHE_TTL", value: "60" });
      await openSecrets(page, project);
      const row = secretRow(page, "CACHE_TTL");
      await row.getByRole("button", { name: "Edit value of CACHE_TTL" }).click();
      const input = row.getByRole("textbox", { name: "New value of CACHE_TTL" });
      await expect(input).toHaveValue("60");
      await input.fill("30");
      await input.press("Escape");
      await page
        .getByRole("alertdialog", { name: "Discard unsaved changes?" })
        .getByRole("button", { name: "Discard changes" })
        .click();
      await expect(input).toBeHidden();
      await expect(row.getByRole("button", { name: "Edit value of CACHE_TTL" })).toBeFocused();
      expect((await readSecret(service, project, "CACHE_TTL")).secretValue).toBe("60");

      await row.getByRole("button", { name: "Edit value of CACHE_TTL" }).click();
      await input.fill("300");
      await input.press("Enter");
      await expect(input).toBeHidden();
      const pending = page.getByRole("region", { name: "Pending changes" });
      await pending.getByRole("button", { name: "Save 1 change" }).click();
      await expect(page.getByText("Changes saved")).toBeVisible();
      expect(await readSecret(service, project, "CACHE_TTL")).toMatchObject({ secretValue: "300", version: 2 });
      await row.getByRole("button", { name: "Reveal value of CACHE_TTL" }).click();
      await expect(row).toContainText("300");
    },
  );

  test(
    "renames a secret in the drawer, keeping its value and comment",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      await seedSecret(service, project, { key: "DB_URL", value: "postgres://db/main", comment: "primary database" });
      const drawer = await openDrawer(page, project, "DB_URL");
      await drawer.getByLabel("Name", { exact: true }).fill("PRIMARY_DB_URL");
      await drawer.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("dialog", { name: "PRIMARY_DB_URL", exact: true })).toBeVisible();
      await expect(page).toHaveURL(/[?&]secret=PRIMARY_DB_URL(&|$)/);

      const renamed = await readSecret(service, project, "PRIMARY_DB_URL");
      expect(renamed).toMatchObject({ secretValue: "postgres://db/main", secretComment: "primary database" });
      expect(await statusOf(readSecret(service, project, "DB_URL"))).toBe(404);
    },
  );

  test("deletes a secret only after confirming", live, async ({ signedIn: page, service, seededProject: project }) => {
    await seedSecret(service, project, { key: "OLD_TOKEN", value: "t0k3n" });
    await seedSecret(service, project, { key: "KEEP_ME", value: "kept" });
    await openSecrets(page, project);

    // Delete stages the deletion; undo takes it back; saving asks first.
    const row = secretRow(page, "OLD_TOKEN");
    await row.getByRole("button", { name: "Delete OLD_TOKEN" }).click();
    await expect(row).toContainText("Deleted on save");
    await row.getByRole("button", { name: "Undo changes to OLD_TOKEN" }).click();
    await expect(row).not.toContainText("Deleted on save");

    await row.getByRole("button", { name: "Delete OLD_TOKEN" }).click();
    const pending = page.getByRole("region", { name: "Pending changes" });
    await pending.getByRole("button", { name: "Save 1 change" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Save 1 change?" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    expect(await statusOf(readSecret(service, project, "OLD_TOKEN"))).toBe(200);

    await pending.getByRole("button", { name: "Save 1 change" }).click();
    await confirm.getByRole("button", { name: "Save 1 change" }).click();
    await expect(confirm).toBeHidden();
    await expect(secretRow(page, "OLD_TOKEN")).toHaveCount(0);
    await expect(secretRow(page, "KEEP_ME")).toBeVisible();
    expect(await statusOf(readSecret(service, project, "OLD_TOKEN"))).toBe(404);
  });
});

test.describe("folders", () => {
  test(
    "creates a folder, opens it, and deletes it once empty",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      await openSecrets(page, project);
      const folders = page.getByRole("region", { name: "Folders" });
      await folders.getByRole("button", { name: "New folder" }).click();
      const dialog = page.getByRole("dialog", { name: "New folder" });
      await dialog.getByLabel("Name").fill("jobs");
      await dialog.getByRole("button", { name: "Create folder" }).click();
      await expect(dialog).toBeHidden();

      await folders.getByRole("link", { name: "jobs", exact: true }).click();
      await expect(page).toHaveURL(/path=%2Fjobs(&|$)/);
      await expect(page.getByRole("heading", { name: "No secrets in this folder" })).toBeVisible();
      const crumbs = page.getByRole("navigation", { name: "Folder path" });
      await expect(crumbs.getByRole("link", { name: "jobs" })).toHaveAttribute("aria-current", "location");
      await crumbs.getByRole("link", { name: "dev" }).click();

      await folders.getByRole("button", { name: "Delete folder jobs" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Delete folder jobs?" });
      await expect(confirm).toContainText("The empty folder “jobs” will be deleted.");
      await confirm.getByRole("button", { name: "Delete folder" }).click();
      await expect(confirm).toBeHidden();
      await expect(folders.getByRole("link", { name: "jobs", exact: true })).toHaveCount(0);
      const { folders: left } = await service(endpoints["folders.list"], {
        query: { workspaceId: project.id, environment: "dev", path: "/" },
      });
      expect(left.map((folder) => folder.name)).toEqual([]);
    },
  );

  test(
    "deletes a folder that holds a secret once its name is typed",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      await seedFolder(service, project, "api");
      await seedSecret(service, project, { key: "API_PORT", value: "8080", secretPath: "/api" });
      await openSecrets(page, project);
      const folders = page.getByRole("region", { name: "Folders" });
      await folders.getByRole("button", { name: "Delete folder api" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Delete folder api?" });
      await expect(confirm).toContainText("Deleted with it: 1 secret inside /api.");
      await expect(confirm.getByRole("button", { name: "Delete folder" })).toBeDisabled();
      await confirm.getByRole("textbox", { name: "Type api to confirm" }).fill("api");
      await confirm.getByRole("button", { name: "Delete folder" }).click();
      await expect(confirm).toBeHidden();
      await expect(folders.getByRole("link", { name: "api", exact: true })).toHaveCount(0);
      const { folders: left } = await service(endpoints["folders.list"], {
        query: { workspaceId: project.id, environment: "dev", path: "/" },
      });
      expect(left).toEqual([]);
    },
  );
});

test.describe("tags", () => {
  test(
    "creates a tag in the drawer and attaches it to the secret",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      await seedSecret(service, project, { key: "TLS_KEY", value: "key" });
      const drawer = await openDrawer(page, project, "TLS_KEY");
      await expect(drawer.getByText("This project has no tags yet. Create one below.")).toBeVisible();
      await drawer.getByRole("textbox", { name: "New tag" }).fill("tls");
      await drawer.getByRole("button", { name: "Create tag" }).click();
      await expect(drawer.getByRole("checkbox", { name: "tls" })).toBeChecked();
      await drawer.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Secret saved" })).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(secretRow(page, "TLS_KEY")).toContainText("tls");

      const saved = await readSecret(service, project, "TLS_KEY");
      expect(saved.tags?.map((tag) => tag.slug)).toEqual(["tls"]);
      const { workspaceTags } = await service(endpoints["tags.list"], { params: { workspaceId: project.id } });
      expect(workspaceTags.map((tag) => tag.slug)).toEqual(["tls"]);
    },
  );
});

test.describe("versions", () => {
  test(
    "lists a secret's versions after an edit, or says the server gives them only to a user",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      await seedSecret(service, project, { key: "API_TOKEN", value: "token-first", comment: "issued" });
      await service(endpoints["secrets.update"], {
        params: { secretName: "API_TOKEN" },
        body: { workspaceId: project.id, environment: "dev", secretPath: "/", secretValue: "token-second" },
      });
      const drawer = await openDrawer(page, project, "API_TOKEN");
      await drawer.getByRole("tab", { name: "Version history" }).click();
      if (server === "keyhold") {
        const versions = drawer.getByRole("list", { name: "Versions" });
        await expect(versions.getByRole("button", { name: /^Version \d/ })).toHaveText([
          /^Version 2Current/,
          /^Version 1/,
        ]);
        await drawer.getByRole("button", { name: "Reveal values" }).click();
        await expect(drawer.getByRole("list", { name: "Value: version 1 → version 2" })).toContainText(
          "Added: token-second",
        );
      } else {
        // Both Infisical lines refuse a secret's versions to a machine identity, whatever it may do.
        await expect(
          drawer.getByText(
            "Not available: This server gives a secret's versions only to a user's session, not to a machine identity.",
          ),
        ).toBeVisible();
        await expect(drawer.getByRole("alert")).toHaveCount(0);
      }
    },
  );
});

test.describe("secret imports", () => {
  const importsList = (page: Page) => page.getByRole("list", { name: "Imports of dev:/" });
  const importRow = (page: Page, source: string) =>
    importsList(page)
      .getByRole("listitem")
      .filter({ has: page.getByRole("button", { name: `Reorder ${source},` }) });
  async function importOrder(service: ServiceCall, project: Project) {
    const { secretImports } = await service(endpoints["secretImports.list"], {
      query: { workspaceId: project.id, environment: "dev", path: "/" },
    });
    return secretImports.map((i) => i.importEnv.slug);
  }

  test(
    "adds an import of another environment and shows the keys it brings",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      await seedSecret(service, project, { key: "STAGING_ONLY", value: "s", environment: "staging" });
      await page.goto(`/projects/${project.id}/secret-imports?environment=dev`);
      await expect(page.getByRole("heading", { name: "No imports in this folder" })).toBeVisible();
      await page.getByRole("button", { name: "Add import", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Add import" });
      await dialog.getByLabel("Source environment").selectOption({ label: "Staging (staging)" });
      await dialog.getByLabel("Source folder path").fill("/");
      await dialog.getByRole("button", { name: "Add import" }).click();
      await expect(dialog).toBeHidden();

      await expect(
        importRow(page, "staging:/").getByRole("listitem").filter({ hasText: "STAGING_ONLY" }),
      ).toBeVisible();
      await expect(page.getByText("The server did not report this import's keys.")).toHaveCount(0);
      expect(await importOrder(service, project)).toEqual(["staging"]);
    },
  );

  test(
    "moves an import up, then removes one after confirming",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      for (const environment of ["staging", "prod"]) {
        await service(endpoints["secretImports.create"], {
          body: { workspaceId: project.id, environment: "dev", path: "/", import: { environment, path: "/" } },
        });
      }
      await page.goto(`/projects/${project.id}/secret-imports?environment=dev`);
      const handles = importsList(page).getByRole("button", { name: /^Reorder / });
      await expect(handles.first()).toHaveAccessibleName("Reorder staging:/, position 1 of 2");

      await page.getByRole("button", { name: "Move prod:/ up" }).click();
      await expect(handles.first()).toHaveAccessibleName("Reorder prod:/, position 1 of 2");
      await expect.poll(() => importOrder(service, project)).toEqual(["prod", "staging"]);

      await page.getByRole("button", { name: "Remove import staging:/" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Remove import" });
      await confirm.getByRole("button", { name: "Remove import" }).click();
      await expect(confirm).toBeHidden();
      await expect(handles).toHaveCount(1);
      expect(await importOrder(service, project)).toEqual(["prod"]);
    },
  );
});

test.describe("integrations", () => {
  test(
    "an integration auth alone is no integration: the page keeps its empty state",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      // Stored credentials only: no provider is contacted, and no integration is created from them.
      const { integrationAuth } = await service(endpoints["integrationAuths.create"], {
        body: { workspaceId: project.id, integration: "github", accessToken: uniqueName("ghp") },
      });
      try {
        const { authorizations } = await service(endpoints["projects.listIntegrationAuths"], {
          params: { workspaceId: project.id },
        });
        expect(authorizations.map((auth) => auth.id)).toEqual([integrationAuth.id]);
        await page.goto(`/projects/${project.id}/integrations`);
        await expect(page.getByRole("heading", { level: 1, name: "Integrations" })).toBeVisible();
        await expect(page.getByRole("heading", { name: "No integrations in this project" })).toBeVisible();
        await expect(page.getByText(/provider's own sign-in flow/)).toBeVisible();
        await expect(page.getByRole("alert")).toHaveCount(0);
      } finally {
        await service(endpoints["integrationAuths.delete"], { params: { integrationAuthId: integrationAuth.id } });
      }
    },
  );
});
