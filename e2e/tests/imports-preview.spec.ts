import { endpoints, type Project } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import type { ServiceCall } from "../support/api.ts";
import { expect, test, uniqueName } from "../support/fixtures.ts";

/**
 * Before a move or a removal of an import is saved, the page lists the keys whose value would
 * come from elsewhere, and from where: names and sources, never values. dev:/ imports shared:/,
 * staging:/ and prod:/ in that order; staging and prod both hold API_KEY and DB_URL, shared holds
 * DB_URL and REGION, and dev holds DB_URL itself (its own secret wins it whatever the order).
 */
const test2 = test.extend<{ project: Project }>({
  project: async ({ service }, use) => {
    const { project } = await service(endpoints["projects.create"], {
      body: { projectName: uniqueName("e2e-imports-preview"), shouldCreateDefaultEnvs: true },
    });
    const folder = (environment: string) => ({ workspaceId: project.id, environment, secretPath: "/" });
    await service(endpoints["folders.create"], {
      body: { workspaceId: project.id, environment: "staging", path: "/", name: "shared" },
    });
    const secrets: [string, string, string, string][] = [
      ["staging", "/shared", "DB_URL", "shared-db"],
      ["staging", "/shared", "REGION", "eu"],
      ["staging", "/", "API_KEY", "key-from-staging"],
      ["staging", "/", "DB_URL", "staging-db"],
      ["prod", "/", "API_KEY", "key-from-prod"],
      ["prod", "/", "DB_URL", "prod-db"],
      ["prod", "/", "PROD_ONLY", "p"],
      ["dev", "/", "DB_URL", "dev-db"],
    ];
    for (const [environment, secretPath, secretName, secretValue] of secrets) {
      await service(endpoints["secrets.create"], {
        params: { secretName },
        body: { ...folder(environment), secretPath, secretValue },
      });
    }
    for (const [environment, path] of [
      ["staging", "/shared"],
      ["staging", "/"],
      ["prod", "/"],
    ] as const) {
      await service(endpoints["secretImports.create"], {
        body: { workspaceId: project.id, environment: "dev", path: "/", import: { environment, path } },
      });
    }
    await use(project);
    await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
  },
});

async function importOrder(service: ServiceCall, project: Project) {
  const { secretImports } = await service(endpoints["secretImports.list"], {
    query: { workspaceId: project.id, environment: "dev", path: "/" },
  });
  return secretImports.map((i) => `${i.importEnv.slug}:${i.importPath}`);
}

async function resolved(service: ServiceCall, project: Project, secretName: string) {
  const { secret } = await service(endpoints["secrets.get"], {
    params: { secretName },
    query: { workspaceId: project.id, environment: "dev", secretPath: "/", include_imports: "true" },
  });
  return secret.secretValue;
}

const open = async (page: Page, project: Project) => {
  await page.goto(`/projects/${project.id}/secret-imports?environment=dev`);
  // The keys each import provides are read before the preview can be shown.
  await expect(page.getByRole("list", { name: "Imports of dev:/" }).getByText("API_KEY").first()).toBeVisible();
};

test2(
  "moving an import lists the keys that change and their new source before anything is saved",
  async ({ signedIn: page, service, project }) => {
    const updates: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "PATCH" && request.url().includes("/api/v1/secret-imports/"))
        updates.push(request.url());
    });
    await open(page, project);

    // prod:/ one up: staging:/ (now last) wins API_KEY; REGION and dev's own DB_URL stay as they are.
    await page.getByRole("button", { name: "Move prod:/ up" }).click();
    const preview = page.getByRole("alertdialog", { name: "Move prod:/ to position 2?" });
    await expect(preview).toContainText("One key would be read from elsewhere here.");
    await expect(preview.getByRole("list", { name: "Keys whose value would change" }).getByRole("listitem")).toHaveText(
      ["API_KEY: from staging:/, not prod:/"],
    );
    // No value is on the page, in the preview or elsewhere.
    await expect(page.getByText(/key-from-|-db\b/)).toHaveCount(0);

    // Cancelled: nothing was sent and the server's order stands.
    await preview.getByRole("button", { name: "Cancel" }).click();
    await expect(preview).toBeHidden();
    expect(updates).toEqual([]);
    expect(await importOrder(service, project)).toEqual(["staging:/shared", "staging:/", "prod:/"]);

    // Confirmed: saved, and a client now resolves the value the preview named the source of.
    await page.getByRole("button", { name: "Move prod:/ up" }).click();
    await preview.getByRole("button", { name: "Move import" }).click();
    await expect(preview).toBeHidden();
    await expect.poll(() => importOrder(service, project)).toEqual(["staging:/shared", "prod:/", "staging:/"]);
    expect(await resolved(service, project, "API_KEY")).toBe("key-from-staging");
    expect(await resolved(service, project, "DB_URL")).toBe("dev-db");
  },
);

test2("a move that changes no key is saved at once", async ({ signedIn: page, service, project }) => {
  await open(page, project);
  // staging:/shared and staging:/ share only DB_URL, which dev holds itself.
  await page.getByRole("button", { name: "Move staging:/shared down" }).click();
  await expect.poll(() => importOrder(service, project)).toEqual(["staging:/", "staging:/shared", "prod:/"]);
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
});

test2(
  "removing an import lists the keys another source takes and those no source keeps",
  async ({ signedIn: page, project }) => {
    await open(page, project);
    await page.getByRole("button", { name: "Remove import prod:/" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Remove import" });
    await expect(confirm).toContainText("2 keys would be read from elsewhere:");
    await expect(confirm.getByRole("list", { name: "Keys whose value would change" }).getByRole("listitem")).toHaveText(
      ["API_KEY: from staging:/, not prod:/", "PROD_ONLY: from nowhere (no longer readable here), not prod:/"],
    );
    await confirm.getByRole("button", { name: "Cancel" }).click();
  },
);
