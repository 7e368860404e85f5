import { endpoints, type Project } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import type { ServiceCall } from "../support/api.ts";
import { expect, test } from "../support/fixtures.ts";
import { seedFolder } from "../support/secrets.ts";

/**
 * An import's source folder is chosen among the source environment's folders, and one that does
 * not exist is refused by the console. The service still accepts such an import (as Infisical
 * does); the imports page marks it.
 */
async function devImports(service: ServiceCall, project: Project) {
  const { secretImports } = await service(endpoints["secretImports.list"], {
    query: { workspaceId: project.id, environment: "dev", path: "/" },
  });
  return secretImports.map((i) => `${i.importEnv.slug}:${i.importPath}`);
}

async function openAddImport(page: Page, project: Project) {
  await page.goto(`/projects/${project.id}/secret-imports?environment=dev`);
  await expect(page.getByRole("heading", { name: "No imports in this folder" })).toBeVisible();
  await page.getByRole("button", { name: "Add import", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Add import" });
  await dialog.getByLabel("Source environment").selectOption("prod");
  return dialog;
}

for (const theme of ["light", "dark"] as const) {
  test.describe(theme, () => {
    test.use({ colorScheme: theme });

    test("offers the source environment's folders and imports the one chosen", async ({
      signedIn: page,
      service,
      seededProject: project,
    }) => {
      await seedFolder(service, project, "database", "/", "prod");
      await seedFolder(service, project, "replica", "/database", "prod");
      await seedFolder(service, project, "cache", "/", "prod");
      const dialog = await openAddImport(page, project);

      const folders = dialog.getByRole("listbox", { name: "Folders of prod" });
      await expect(folders.getByRole("option")).toHaveText(["/", "/cache", "/database"]);
      const path = dialog.getByRole("combobox", { name: "Source folder path" });
      await path.fill("/dat");
      await expect(folders.getByRole("option")).toHaveText(["/database"]);
      await folders.getByRole("option", { name: "/database" }).click();
      await expect(path).toHaveValue("/database");
      await expect(folders.getByRole("option")).toHaveText(["/database", "/database/replica"]);
      // The keyboard picks too: down to the sub-folder, Enter.
      await path.press("ArrowDown");
      await path.press("Enter");
      await expect(path).toHaveValue("/database/replica");

      await dialog.getByRole("button", { name: "Add import" }).click();
      await expect(dialog).toBeHidden();
      expect(await devImports(service, project)).toEqual(["prod:/database/replica"]);
      await expect(page.getByRole("button", { name: "Reorder prod:/database/replica," })).toBeVisible();
      await expect(page.getByText(/does not exist/)).toHaveCount(0);
    });

    test("refuses a source folder that does not exist, without asking the server", async ({
      signedIn: page,
      service,
      seededProject: project,
    }) => {
      const dialog = await openAddImport(page, project);
      const path = dialog.getByRole("combobox", { name: "Source folder path" });
      await path.fill("/nope");
      await expect(dialog.getByText("No folder of prod matches /nope.")).toBeVisible();
      const creates: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST" && request.url().includes("/api/v1/secret-imports"))
          creates.push(request.url());
      });
      await dialog.getByRole("button", { name: "Add import" }).click();
      await expect(dialog.getByText("Folder /nope does not exist in prod")).toBeVisible();
      await expect(path).toHaveAttribute("aria-invalid", "true");
      await expect(dialog).toBeVisible();
      expect(creates).toEqual([]);
      expect(await devImports(service, project)).toEqual([]);
    });

    test("marks an import whose source folder is missing, which the service accepted", async ({
      signedIn: page,
      service,
      seededProject: project,
    }) => {
      await seedFolder(service, project, "database", "/", "prod");
      for (const path of ["/database", "/nope"]) {
        await service(endpoints["secretImports.create"], {
          body: { workspaceId: project.id, environment: "dev", path: "/", import: { environment: "prod", path } },
        });
      }
      expect(await devImports(service, project)).toEqual(["prod:/database", "prod:/nope"]);

      await page.goto(`/projects/${project.id}/secret-imports?environment=dev`);
      const list = page.getByRole("list", { name: "Imports of dev:/" });
      const row = (source: string) =>
        list.getByRole("listitem").filter({ has: page.getByRole("button", { name: `Reorder ${source},` }) });
      await expect(row("prod:/nope")).toContainText(
        "Folder /nope does not exist in prod. This import brings no secrets until the folder is created.",
      );
      await expect(row("prod:/nope")).not.toContainText("No secrets in this folder");
      await expect(row("prod:/database")).toContainText("No secrets in this folder");
      await expect(row("prod:/database")).not.toContainText("does not exist");
    });
  });
}
