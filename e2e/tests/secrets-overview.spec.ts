import AxeBuilder from "@axe-core/playwright";
import type { Project } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import type { ServiceCall } from "../support/api.ts";
import { expect, test } from "../support/fixtures.ts";
import { readSecret, seedFolder, seedSecret } from "../support/secrets.ts";

/**
 * The secrets overview against the real service: keys as rows, the project's environments
 * (Development, Staging, Production) as columns. Everything is seeded through the API, and
 * what the browser writes is read back through the API.
 */

type Slug = "dev" | "staging" | "prod";

/** Seeds one key with a value per environment; an environment left out does not get the key. */
async function seedAcross(service: ServiceCall, project: Project, key: string, values: Partial<Record<Slug, string>>) {
  await Promise.all(
    Object.entries(values).map(([environment, value]) => seedSecret(service, project, { key, value, environment })),
  );
}

/** The writes of many secrets (batches, commits) the page sends from now on, as "METHOD environment". */
function batchWrites(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname !== "/api/v3/secrets/batch/raw" && pathname !== "/api/v1/pit/batch/commit") return;
    const body = request.postDataJSON() as { environment?: string } | null;
    seen.push(`${request.method()} ${body?.environment ?? "?"}`);
  });
  return seen;
}

async function openOverview(page: Page, project: Project, search = "") {
  await page.goto(`/projects/${project.id}/overview${search}`);
  await expect(page.getByRole("heading", { level: 1, name: "Secrets overview" })).toBeVisible();
}

const overviewTable = (page: Page) => page.getByRole("table", { name: "Secrets across environments" });
const keyRow = (page: Page, key: string) =>
  overviewTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader").getByText(key, { exact: true }) });
/** The cell of a key's row in an environment's column (1: Development, 2: Staging, 3: Production). */
const cellOf = (page: Page, key: string, column: 1 | 2 | 3) =>
  keyRow(page, key)
    .getByRole("cell")
    .nth(column - 1);

test("finds the key missing in prod and adds it there", async ({ signedIn: page, service, seededProject }) => {
  await seedAcross(service, seededProject, "API_URL", {
    dev: "https://api",
    staging: "https://api",
    prod: "https://api",
  });
  await seedAcross(service, seededProject, "STRIPE_KEY", { dev: "sk_test_1", staging: "sk_test_1" });
  await openOverview(page, seededProject);

  await page.getByLabel("Show").selectOption("missing");
  await expect(overviewTable(page).getByRole("rowheader")).toHaveText([/STRIPE_KEY/]);
  await expect(keyRow(page, "STRIPE_KEY")).toContainText("Missing in prod");
  const prod = cellOf(page, "STRIPE_KEY", 3);
  await expect(prod).toContainText("Missing");
  await expect(prod.getByText("in Production")).toBeAttached();

  await prod.getByRole("button", { name: "Add STRIPE_KEY in Production" }).click();
  await prod.getByRole("textbox", { name: "Value of STRIPE_KEY in Production" }).fill("sk_live_9");
  await page.keyboard.press("Enter");
  // Staged, not yet written: the cell says so, and the page counts it.
  await expect(prod).toContainText("New");
  const pending = page.getByRole("region", { name: "Pending changes" });
  await expect(pending).toContainText("1 change not saved yet");
  const writes = batchWrites(page);
  await pending.getByRole("button", { name: "Save 1 change" }).click();
  await expect(page.getByText("Changes saved")).toBeVisible();
  expect(writes).toEqual(["POST prod"]);

  const added = await readSecret(service, seededProject, "STRIPE_KEY", "prod");
  expect(added.secretValue).toBe("sk_live_9");
  await expect(overviewTable(page).getByRole("rowheader")).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "keys" })).toHaveText("0 of 2 keys");
});

test("adds a new key to several environments at once", async ({ signedIn: page, service, seededProject }) => {
  await seedAcross(service, seededProject, "EXISTING", { dev: "1" });
  await openOverview(page, seededProject);
  await page.getByRole("button", { name: "Add key", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Add key" });
  await dialog.getByLabel("Key").fill("QUEUE_URL");
  await dialog.getByLabel("Value").fill("amqp://queue");
  await dialog.getByRole("checkbox", { name: /Staging/ }).uncheck();
  await dialog.getByRole("button", { name: "Add key" }).click();
  await expect(dialog).toBeHidden();

  for (const environment of ["dev", "prod"]) {
    expect((await readSecret(service, seededProject, "QUEUE_URL", environment)).secretValue).toBe("amqp://queue");
  }
  await expect(keyRow(page, "QUEUE_URL")).toContainText("Missing in staging");
});

test("copies a value from dev to staging and prod without showing it", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await seedAcross(service, seededProject, "DB_URL", { dev: "postgres://dev-db", staging: "postgres://old" });
  await openOverview(page, seededProject);
  await cellOf(page, "DB_URL", 1)
    .getByRole("button", { name: "Copy DB_URL from Development to other environments" })
    .click();
  const dialog = page.getByRole("dialog", { name: "Copy DB_URL to other environments" });
  await expect(dialog.getByRole("checkbox", { name: /Staging/ })).toBeChecked();
  await expect(dialog.getByRole("checkbox", { name: /Production/ })).toBeChecked();
  await expect(dialog).toContainText("Adds the key");
  await dialog.getByRole("button", { name: "Copy value" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("postgres://dev-db")).toHaveCount(0);

  for (const environment of ["staging", "prod"]) {
    expect((await readSecret(service, seededProject, "DB_URL", environment)).secretValue).toBe("postgres://dev-db");
  }
  await expect(keyRow(page, "DB_URL")).toContainText("Same value");
  await expect(keyRow(page, "DB_URL")).not.toContainText("Missing");
});

test("marks values that differ and values that are equal, without reading them", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await seedAcross(service, seededProject, "LOG_LEVEL", { dev: "debug", staging: "info", prod: "debug" });
  await seedAcross(service, seededProject, "REGION", { dev: "eu-west-1", staging: "eu-west-1", prod: "eu-west-1" });
  const reads: string[] = [];
  page.on("request", (request) => {
    if (/\/api\/v3\/secrets\/raw\/[^?]/.test(request.url())) reads.push(request.url());
  });
  await openOverview(page, seededProject);

  await expect(keyRow(page, "REGION")).toContainText("Same value");
  await expect(keyRow(page, "LOG_LEVEL")).toContainText("Values differ");
  await expect(cellOf(page, "LOG_LEVEL", 1)).toContainText("value A: same value as Production");
  await expect(cellOf(page, "LOG_LEVEL", 2)).toContainText("value B: a value no other environment has");
  await expect(cellOf(page, "LOG_LEVEL", 3)).toContainText("value A: same value as Development");
  await page.getByLabel("Show").selectOption("differ");
  await expect(overviewTable(page).getByRole("rowheader")).toHaveText([/LOG_LEVEL/]);
  // Compared by digest: no value was read.
  expect(reads).toEqual([]);
});

test("reveals a key's values side by side, and masks them again when the window loses focus", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await seedAcross(service, seededProject, "SMTP_HOST", {
    dev: "mail.dev",
    staging: "mail.staging",
    prod: "mail.prod",
  });
  await openOverview(page, seededProject);
  const row = keyRow(page, "SMTP_HOST");
  await expect(row.getByText("Value masked")).toHaveCount(3);
  await row.getByRole("button", { name: "Reveal values of SMTP_HOST" }).click();
  await expect(cellOf(page, "SMTP_HOST", 1)).toContainText("mail.dev");
  await expect(cellOf(page, "SMTP_HOST", 2)).toContainText("mail.staging");
  await expect(cellOf(page, "SMTP_HOST", 3)).toContainText("mail.prod");
  await page.evaluate(() => window.dispatchEvent(new Event("blur")));
  await expect(row.getByText("Value masked")).toHaveCount(3);
  await expect(page.getByText("mail.prod")).toHaveCount(0);
});

test("stages cell edits in two environments, undoes one, and saves the rest", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await seedAcross(service, seededProject, "WORKERS", { dev: "2", staging: "4", prod: "8" });
  await seedAcross(service, seededProject, "TIMEOUT", { dev: "10", staging: "10", prod: "10" });
  await openOverview(page, seededProject);
  const edit = async (key: string, column: 1 | 2 | 3, name: string, from: string, to: string) => {
    const cell = cellOf(page, key, column);
    await cell.getByRole("button", { name: `Edit ${key} in ${name}` }).click();
    const input = cell.getByRole("textbox", { name: `New value of ${key} in ${name}` });
    await expect(input).toHaveValue(from);
    await input.fill(to);
    await input.press("Enter");
    await expect(cell).toContainText("Edited");
  };
  await edit("WORKERS", 2, "Staging", "4", "6");
  await edit("WORKERS", 3, "Production", "8", "12");
  await edit("TIMEOUT", 1, "Development", "10", "30");
  const pending = page.getByRole("region", { name: "Pending changes" });
  await expect(pending).toContainText("3 changes not saved yet");
  await cellOf(page, "TIMEOUT", 1).getByRole("button", { name: "Undo the change of TIMEOUT in Development" }).click();
  await expect(pending).toContainText("2 changes not saved yet");

  const writes = batchWrites(page);
  await pending.getByRole("button", { name: "Save 2 changes" }).click();
  await expect(page.getByText("Changes saved")).toBeVisible();
  // One request per environment (each folder's changes are one commit).
  expect(writes.sort()).toEqual(["POST prod", "POST staging"]);
  expect((await readSecret(service, seededProject, "WORKERS", "staging")).secretValue).toBe("6");
  expect((await readSecret(service, seededProject, "WORKERS", "prod")).secretValue).toBe("12");
  expect((await readSecret(service, seededProject, "TIMEOUT", "dev")).secretValue).toBe("10");
});

test("lists sub-folders with where they exist, and opens one", async ({ signedIn: page, service, seededProject }) => {
  await seedFolder(service, seededProject, "app", "/", "dev");
  await seedFolder(service, seededProject, "app", "/", "prod");
  await seedSecret(service, seededProject, { key: "APP_PORT", value: "80", environment: "prod", secretPath: "/app" });
  await openOverview(page, seededProject);
  const folderRow = overviewTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: /app/ }) });
  await expect(folderRow.getByRole("cell").nth(1)).toContainText("Not here");
  await folderRow.getByRole("link", { name: /app/ }).click();
  await expect(page).toHaveURL(/path=%2Fapp/);
  await expect(keyRow(page, "APP_PORT")).toContainText("Missing in dev");
  await expect(page.getByRole("columnheader", { name: /Staging/ })).toContainText("No such folder");
});

for (const theme of ["light", "dark"] as const) {
  test.describe(`${theme} theme`, () => {
    test.use({ colorScheme: theme });

    test("the overview, a staged cell and its dialogs have no serious accessibility violations", async ({
      signedIn: page,
      service,
      seededProject,
    }) => {
      await seedAcross(service, seededProject, "LOG_LEVEL", { dev: "debug", staging: "info", prod: "debug" });
      await seedAcross(service, seededProject, "ONLY_DEV", { dev: "1" });
      await seedFolder(service, seededProject, "app", "/", "dev");
      await openOverview(page, seededProject);
      await expect(keyRow(page, "LOG_LEVEL")).toContainText("Values differ");
      const serious = async () => {
        // Scanned at rest: toasts and dialogs fade in.
        await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
        const { violations } = await new AxeBuilder({ page }).analyze();
        return violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")) }));
      };
      await keyRow(page, "LOG_LEVEL").getByRole("button", { name: "Reveal values of LOG_LEVEL" }).click();
      await expect(cellOf(page, "LOG_LEVEL", 2)).toContainText("info");
      expect(await serious()).toEqual([]);

      const prod = cellOf(page, "ONLY_DEV", 3);
      await prod.getByRole("button", { name: "Add ONLY_DEV in Production" }).click();
      await prod.getByRole("textbox", { name: "Value of ONLY_DEV in Production" }).fill("2");
      await page.keyboard.press("Enter");
      await expect(prod).toContainText("New");
      expect(await serious()).toEqual([]);

      await page.getByRole("button", { name: "Add key", exact: true }).click();
      await expect(page.getByRole("dialog", { name: "Add key" })).toBeVisible();
      expect(await serious()).toEqual([]);
      await page.keyboard.press("Escape");

      await cellOf(page, "LOG_LEVEL", 1)
        .getByRole("button", { name: "Copy LOG_LEVEL from Development to other environments" })
        .click();
      await expect(page.getByRole("dialog", { name: "Copy LOG_LEVEL to other environments" })).toBeVisible();
      expect(await serious()).toEqual([]);
    });
  });
}
