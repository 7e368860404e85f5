import { endpoints, type Project } from "@keyhold/contract";
import type { Locator, Page } from "@playwright/test";
import { type ServiceCall, ServiceError } from "../support/api.ts";
import { expect, test as base, uniqueName } from "../support/fixtures.ts";

/**
 * The secret imports page against the real service. A project is created through the API with
 * its default environments; staging and prod both hold API_KEY (with different values) and one
 * key of their own, dev holds LOCAL_ONLY. Every change made in the browser is read back through
 * the API, including the value a client resolves for API_KEY in dev.
 */
const test = base.extend<{ seededProject: Project }>({
  seededProject: async ({ service }, use) => {
    const { project } = await service(endpoints["projects.create"], {
      body: { projectName: uniqueName("e2e-imports"), shouldCreateDefaultEnvs: true },
    });
    const secrets: [string, string, string][] = [
      ["staging", "API_KEY", "key-from-staging"],
      ["staging", "STAGING_ONLY", "s"],
      ["prod", "API_KEY", "key-from-prod"],
      ["prod", "PROD_ONLY", "p"],
      ["dev", "LOCAL_ONLY", "d"],
    ];
    for (const [environment, secretName, secretValue] of secrets) {
      await service(endpoints["secrets.create"], {
        params: { secretName },
        body: { workspaceId: project.id, environment, secretPath: "/", secretValue },
      });
    }
    await use(project);
    try {
      await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
    } catch (error) {
      if (!(error instanceof ServiceError && error.status === 404)) throw error;
    }
  },
});

const devRoot = (project: Project) => ({ workspaceId: project.id, environment: "dev", path: "/" });

async function seedImports(service: ServiceCall, project: Project, ...sources: string[]) {
  for (const environment of sources) {
    await service(endpoints["secretImports.create"], {
      body: { ...devRoot(project), import: { environment, path: "/" } },
    });
  }
}

/** The sources of dev's imports in position order, as the service lists them. */
async function importOrder(service: ServiceCall, project: Project) {
  const { secretImports } = await service(endpoints["secretImports.list"], { query: devRoot(project) });
  return secretImports.map((i) => `${i.position}:${i.importEnv.slug}`);
}

/** The value a client reading dev with imports gets for API_KEY. */
async function resolvedApiKey(service: ServiceCall, project: Project) {
  const { secret } = await service(endpoints["secrets.get"], {
    params: { secretName: "API_KEY" },
    query: { workspaceId: project.id, environment: "dev", secretPath: "/", include_imports: "true" },
  });
  return secret.secretValue;
}

/** A move that hands API_KEY to the other import is shown first (imports-preview.spec.ts); this confirms it. */
async function confirmMove(page: Page) {
  await page.getByRole("alertdialog").getByRole("button", { name: "Move import" }).click();
  await expect(page.getByRole("alertdialog")).toBeHidden();
}

function importsList(page: Page): Locator {
  return page.getByRole("list", { name: "Imports of dev:/" });
}

/** An import's row, found by its drag handle (named after the source). */
function row(page: Page, source: string): Locator {
  return importsList(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("button", { name: `Reorder ${source},` }) });
}

/** The shown order, first to last, read from the drag handles' names. */
async function expectShownOrder(page: Page, sources: string[]) {
  const handles = importsList(page).getByRole("button", { name: /^Reorder / });
  await expect
    .poll(() => handles.evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label"))))
    .toEqual(sources.map((source, i) => `Reorder ${source}, position ${i + 1} of ${sources.length}`));
}

/** API_KEY's chip in a row: supplied by it, or struck through naming who wins. */
function apiKeyChip(page: Page, source: string): Locator {
  return row(page, source).getByRole("listitem").filter({ hasText: "API_KEY" });
}

test("adds two imports and shows the keys each provides, the later one winning the key they share", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await page.goto(`/projects/${seededProject.id}/secret-imports?environment=dev`);
  await expect(page.getByRole("heading", { name: "No imports in this folder" })).toBeVisible();

  for (const [name, slug] of [
    ["Staging", "staging"],
    ["Production", "prod"],
  ]) {
    await page.getByRole("button", { name: "Add import", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Add import" });
    await dialog.getByLabel("Source environment").selectOption({ label: `${name} (${slug})` });
    await dialog.getByLabel("Source folder path").fill("/");
    await dialog.getByRole("button", { name: "Add import" }).click();
    await expect(dialog).toBeHidden();
    await expect(row(page, `${slug}:/`)).toBeVisible();
  }

  expect(await importOrder(service, seededProject)).toEqual(["1:staging", "2:prod"]);
  await expectShownOrder(page, ["staging:/", "prod:/"]);
  await expect(row(page, "staging:/").getByRole("listitem").filter({ hasText: "STAGING_ONLY" })).toBeVisible();
  await expect(row(page, "prod:/").getByRole("listitem").filter({ hasText: "PROD_ONLY" })).toBeVisible();
  await expect(apiKeyChip(page, "staging:/")).toContainText("overridden by prod:/");
  await expect(apiKeyChip(page, "prod:/")).not.toContainText("overridden");
  // Names only: no value of an imported secret reaches the page.
  await expect(page.getByText("key-from-prod")).toHaveCount(0);
  expect(await resolvedApiKey(service, seededProject)).toBe("key-from-prod");
});

test("moves an import with the step buttons: one update, the server's order shown, the resolved value changes", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await seedImports(service, seededProject, "staging", "prod");
  expect(await resolvedApiKey(service, seededProject)).toBe("key-from-prod");
  await page.goto(`/projects/${seededProject.id}/secret-imports?environment=dev`);
  await expectShownOrder(page, ["staging:/", "prod:/"]);

  const updates: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "PATCH" && request.url().includes("/api/v1/secret-imports/"))
      updates.push(request.postData() ?? "");
  });
  const up = page.getByRole("button", { name: "Move prod:/ up" });
  await up.focus();
  await page.keyboard.press("Enter");
  await confirmMove(page);
  await expectShownOrder(page, ["prod:/", "staging:/"]);
  await expect(page.getByRole("status").filter({ hasText: "Moved import prod:/ to position 1 of 2." })).toBeAttached();
  expect(updates.map((body) => JSON.parse(body).import)).toEqual([{ position: 1 }]);
  expect(await importOrder(service, seededProject)).toEqual(["1:prod", "2:staging"]);

  await expect(apiKeyChip(page, "prod:/")).toContainText("overridden by staging:/");
  await expect(apiKeyChip(page, "staging:/")).not.toContainText("overridden");
  expect(await resolvedApiKey(service, seededProject)).toBe("key-from-staging");

  // At the top, "up" stays focused and says why it does nothing.
  await expect(up).toBeFocused();
  await expect(up).toHaveAttribute("aria-disabled", "true");

  // Moving it back down takes its row out of the document and back: the focus follows it.
  await page.keyboard.press("Tab");
  const down = page.getByRole("button", { name: "Move prod:/ down" });
  await expect(down).toBeFocused();
  await page.keyboard.press("Enter");
  await confirmMove(page);
  await expectShownOrder(page, ["staging:/", "prod:/"]);
  await expect(down).toBeFocused();
  // The page shows the new order as soon as it is asked for; the server's follows its answer.
  await expect.poll(() => importOrder(service, seededProject)).toEqual(["1:staging", "2:prod"]);
});

test("reorders by keyboard on the drag handle, with announcements", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await seedImports(service, seededProject, "staging", "prod");
  await page.goto(`/projects/${seededProject.id}/secret-imports?environment=dev`);
  await expectShownOrder(page, ["staging:/", "prod:/"]);

  await page.getByRole("button", { name: "Reorder staging:/, position 1 of 2" }).focus();
  await page.keyboard.press("Space");
  await expect(page.getByText("Picked up import staging:/ at position 1 of 2.")).toBeAttached();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByText("Import staging:/ is over position 2 of 2.")).toBeAttached();
  await page.keyboard.press("Space");
  await confirmMove(page);

  await expectShownOrder(page, ["prod:/", "staging:/"]);
  await expect.poll(() => importOrder(service, seededProject)).toEqual(["1:prod", "2:staging"]);
  await expect(apiKeyChip(page, "prod:/")).toContainText("overridden by staging:/");
  expect(await resolvedApiKey(service, seededProject)).toBe("key-from-staging");
});

test("reorders by dragging a handle with the mouse", async ({ signedIn: page, service, seededProject }) => {
  await seedImports(service, seededProject, "staging", "prod");
  await page.goto(`/projects/${seededProject.id}/secret-imports?environment=dev`);
  await expectShownOrder(page, ["staging:/", "prod:/"]);

  const handle = page.getByRole("button", { name: "Reorder prod:/, position 2 of 2" });
  const from = await handle.boundingBox();
  const target = await row(page, "staging:/").boundingBox();
  if (!from || !target) throw new Error("rows not laid out");
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  // In steps, past the activation distance, to the top of the first row.
  await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
  await page.mouse.move(from.x + from.width / 2, target.y + 4, { steps: 10 });
  await page.mouse.up();
  await confirmMove(page);

  await expectShownOrder(page, ["prod:/", "staging:/"]);
  await expect.poll(() => importOrder(service, seededProject)).toEqual(["1:prod", "2:staging"]);
  expect(await resolvedApiKey(service, seededProject)).toBe("key-from-staging");
});

test("removes an import after confirmation; the next one takes its keys", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await seedImports(service, seededProject, "staging", "prod");
  await page.goto(`/projects/${seededProject.id}/secret-imports?environment=dev`);

  await page.getByRole("button", { name: "Remove import prod:/" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Remove import" });
  await expect(confirm).toContainText("prod:/");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  expect(await importOrder(service, seededProject)).toEqual(["1:staging", "2:prod"]);

  await page.getByRole("button", { name: "Remove import prod:/" }).click();
  await confirm.getByRole("button", { name: "Remove import" }).click();
  await expect(confirm).toBeHidden();
  await expectShownOrder(page, ["staging:/"]);
  expect(await importOrder(service, seededProject)).toEqual(["1:staging"]);
  await expect(apiKeyChip(page, "staging:/")).not.toContainText("overridden");
  expect(await resolvedApiKey(service, seededProject)).toBe("key-from-staging");
});

test("refuses a cyclic import with the server's reason", async ({ signedIn: page, service, seededProject }) => {
  // staging:/ already imports dev:/, so dev:/ may not import staging:/.
  await service(endpoints["secretImports.create"], {
    body: {
      workspaceId: seededProject.id,
      environment: "staging",
      path: "/",
      import: { environment: "dev", path: "/" },
    },
  });
  await page.goto(`/projects/${seededProject.id}/secret-imports?environment=dev`);
  await page.getByRole("button", { name: "Add import", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Add import" });
  await dialog.getByLabel("Source environment").selectOption("staging");
  await dialog.getByRole("button", { name: "Add import" }).click();
  await expect(dialog.getByRole("alert")).toContainText(/cyclic import/i);
  await expect(dialog).toBeVisible();
  expect(await importOrder(service, seededProject)).toEqual([]);
});

test("keeps the folder in the URL, moves through sub-folders, and refuses an import of the folder itself before asking", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await service(endpoints["folders.create"], {
    body: { workspaceId: seededProject.id, environment: "prod", name: "database", path: "/" },
  });
  await page.goto(`/projects/${seededProject.id}/secret-imports`);
  const picker = page.getByRole("form", { name: "Folder" });
  await picker.getByLabel("Environment").selectOption("prod");
  await expect(page).toHaveURL(/[?&]env=prod/);
  await expect(page.getByRole("region", { name: "Imports" })).toContainText("prod:/");

  await page.getByRole("navigation", { name: "Folders in prod:/" }).getByRole("button", { name: "database" }).click();
  await expect(page).toHaveURL(/path=%2Fdatabase/);
  await expect(picker.getByLabel("Folder path")).toHaveValue("/database");
  await expect(page.getByRole("region", { name: "Imports" })).toContainText("prod:/database");
  await page
    .getByRole("navigation", { name: "Folders in prod:/database" })
    .getByRole("button", { name: "Up to /" })
    .click();
  await expect(picker.getByLabel("Folder path")).toHaveValue("/");
  await picker.getByLabel("Folder path").fill("not a path");
  await picker.getByLabel("Folder path").press("Enter");
  await expect(picker.getByText(/A path is \/ or \/folder\/sub-folder/)).toBeVisible();

  await page.getByRole("button", { name: "Add import", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Add import" });
  await dialog.getByLabel("Source environment").selectOption("prod");
  await dialog.getByRole("button", { name: "Add import" }).click();
  await expect(dialog.getByText("A folder cannot import itself")).toBeVisible();
});
