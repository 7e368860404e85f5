import AxeBuilder from "@axe-core/playwright";
import { endpoints, type Project } from "@keyhold/contract";
import type { Locator, Page } from "@playwright/test";
import type { ServiceCall } from "../support/api.ts";
import { expect, test } from "../support/fixtures.ts";
import { overlappingText, sidewaysOverflow } from "../support/layout.ts";
import { openSecrets, secretsTable, seedFolder, seedSecret } from "../support/secrets.ts";

/**
 * The secrets table shows what a folder's imports provide beside its own secrets, and holds its
 * shape from a phone's width to a wide screen; the secret drawer keeps its labels by their fields.
 */

const APP_KEYS = [
  "APP_NAME",
  "APP_NAME_DISPLAY",
  "API_KEY",
  "CACHE_TTL_SECONDS",
  "FEATURE_FLAGS_SDK_KEY",
  "HTTP_PORT",
  "OAUTH_CLIENT_SECRET",
  "PAYMENTS_WEBHOOK_SECRET",
  "QUEUE_URL",
  "SMTP_PASSWORD",
  "STRIPE_SECRET_KEY",
];

/**
 * dev:/app holds eleven secrets and imports dev:/shared, then dev:/database. API_KEY is its own
 * and overrides shared's; LOG_LEVEL is in both imports, and the later one (database) supplies it.
 */
async function seedImportingFolder(service: ServiceCall, project: Project) {
  await Promise.all(["app", "shared", "database"].map((name) => seedFolder(service, project, name)));
  const { workspaceTag: backend } = await service(endpoints["tags.create"], {
    params: { workspaceId: project.id },
    body: { slug: "backend", color: "#e11d48" },
  });
  const seeds = [
    ...APP_KEYS.map((key, i) => ({
      key,
      value: `app-value-${i}`,
      secretPath: "/app",
      comment: i % 3 === 0 ? "Rotated by the platform team every quarter" : "",
      tagIds: i % 2 === 0 ? [backend.id] : [],
    })),
    { key: "API_KEY", value: "shared-api-key", secretPath: "/shared" },
    { key: "LOG_LEVEL", value: "info", secretPath: "/shared" },
    { key: "SENTRY_DSN", value: "https://sentry.example/1", secretPath: "/shared" },
    { key: "DB_URL", value: "postgres://db.internal/app", secretPath: "/database" },
    { key: "DB_PASSWORD", value: "db-password", secretPath: "/database" },
    { key: "LOG_LEVEL", value: "debug", secretPath: "/database" },
  ];
  await Promise.all(seeds.map((seed) => seedSecret(service, project, seed)));
  // In this order: the later import (database) wins the keys both provide.
  for (const path of ["/shared", "/database"]) {
    await service(endpoints["secretImports.create"], {
      body: { workspaceId: project.id, environment: "dev", path: "/app", import: { environment: "dev", path } },
    });
  }
}

/** Opens dev:/app the way a person does: the project's secrets, then the folder. */
async function openApp(page: Page, project: Project) {
  await openSecrets(page, project);
  await page.getByRole("region", { name: "Folders" }).getByRole("link", { name: "app", exact: true }).click();
  await expect(page.getByRole("navigation", { name: "Folder path" }).getByRole("link").last()).toHaveText("app");
  await expect(keyCell(page, "APP_NAME")).toBeVisible();
}

/** The row of the table whose key is `key` (own or imported). */
const rowOf = (page: Page, key: string) =>
  secretsTable(page)
    .getByRole("row")
    .filter({ has: page.locator(`[title="${key}"]`) });
const keyCell = (page: Page, key: string) => secretsTable(page).locator(`[title="${key}"]`);

/** The keys shown whole (not cut short with an ellipsis). */
async function cutKeys(table: Locator): Promise<string[]> {
  return table.evaluate((root) =>
    Array.from(root.querySelectorAll("tbody [title]"))
      .filter((el) => el.classList.contains("font-mono") && el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.getAttribute("title") ?? ""),
  );
}

for (const theme of ["light", "dark"] as const) {
  test.describe(theme, () => {
    test.use({ colorScheme: theme });

    test("lists imported keys with their source, masked and read-only, and marks own keys that override one", async ({
      signedIn: page,
      service,
      seededProject,
    }) => {
      await seedImportingFolder(service, seededProject);
      // Tall enough for the table to show all its fifteen rows.
      await page.setViewportSize({ width: 1280, height: 1200 });
      await openApp(page, seededProject);
      await expect(page.getByRole("status").filter({ hasText: "secrets" })).toHaveText("15 secrets, 4 imported");

      // Each key the folder lacks, from the import that supplies it: the later import wins LOG_LEVEL.
      for (const [key, source] of [
        ["DB_URL", "dev:/database"],
        ["DB_PASSWORD", "dev:/database"],
        ["LOG_LEVEL", "dev:/database"],
        ["SENTRY_DSN", "dev:/shared"],
      ] as const) {
        const row = rowOf(page, key);
        await expect(row.getByRole("link", { name: `Imported from ${source}` })).toBeVisible();
        await expect(row.getByText("Value masked")).toBeAttached();
        // Read-only here: no edit, no delete, and the row opens no drawer.
        await expect(row.getByRole("button", { name: `Edit value of ${key}` })).toHaveCount(0);
        await expect(row.getByRole("button", { name: `Delete ${key}` })).toHaveCount(0);
      }
      await expect(rowOf(page, "LOG_LEVEL")).toHaveCount(1);
      await keyCell(page, "DB_URL").click();
      await expect(page.getByRole("dialog")).toHaveCount(0);

      // The folder's own API_KEY wins over shared's, and says so; it stays editable.
      const own = rowOf(page, "API_KEY");
      await expect(own).toContainText("Overrides dev:/shared");
      await expect(own.getByRole("button", { name: "Edit value of API_KEY" })).toBeEnabled();
      await expect(rowOf(page, "APP_NAME")).not.toContainText("Overrides");
      // The marks read well in both themes.
      const { violations } = await new AxeBuilder({ page }).include("table").analyze();
      expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

      // An imported value is read from where it lives, on request, and never reaches the address.
      const database = rowOf(page, "DB_URL");
      await database.getByRole("button", { name: "Reveal value of DB_URL" }).click();
      await expect(database).toContainText("postgres://db.internal/app");
      await rowOf(page, "LOG_LEVEL").getByRole("button", { name: "Reveal value of LOG_LEVEL" }).click();
      await expect(rowOf(page, "LOG_LEVEL")).toContainText("debug");
      expect(page.url()).not.toContain("postgres");

      // The source link leads to the folder the secret lives in, where it is the folder's own.
      await rowOf(page, "SENTRY_DSN").getByRole("link", { name: "Imported from dev:/shared" }).click();
      await expect(page.getByRole("navigation", { name: "Folder path" }).getByRole("link").last()).toHaveText("shared");
      await expect(page.getByRole("button", { name: "Open SENTRY_DSN", exact: true })).toBeVisible();
      await expect(rowOf(page, "API_KEY").getByRole("link", { name: /Imported from/ })).toHaveCount(0);

      // Opening an imported secret opens it in its own folder.
      await page.goBack();
      await rowOf(page, "DB_PASSWORD").getByRole("link", { name: "Open DB_PASSWORD in dev:/database" }).click();
      await expect(page.getByRole("dialog", { name: "DB_PASSWORD" })).toBeVisible();
      await expect(page.getByRole("dialog", { name: "DB_PASSWORD" })).toContainText("/database");
    });

    test("at 390 px the table stacks its rows: nothing overlaps, keys read whole, the page never scrolls sideways", async ({
      signedIn: page,
      service,
      seededProject,
    }) => {
      await seedImportingFolder(service, seededProject);
      await page.setViewportSize({ width: 390, height: 844 });
      await openApp(page, seededProject);
      const table = secretsTable(page);

      expect(await sidewaysOverflow(page)).toBe(0);
      expect(await overlappingText(table)).toEqual([]);
      expect(await cutKeys(table)).toEqual([]);
      await expect(rowOf(page, "DB_URL").getByRole("link", { name: "Imported from dev:/database" })).toBeVisible();
      // Every control of a row is inside the window.
      const remove = await rowOf(page, "APP_NAME").getByRole("button", { name: "Delete APP_NAME" }).boundingBox();
      expect(remove && remove.x + remove.width).toBeLessThanOrEqual(390);

      // A revealed value and an inline edit stay inside their row too.
      const row = rowOf(page, "APP_NAME_DISPLAY");
      await row.getByRole("button", { name: "Reveal value of APP_NAME_DISPLAY" }).click();
      await expect(row).toContainText("app-value-1");
      await rowOf(page, "CACHE_TTL_SECONDS").getByRole("button", { name: "Edit value of CACHE_TTL_SECONDS" }).click();
      await expect(page.getByRole("textbox", { name: "New value of CACHE_TTL_SECONDS" })).toBeVisible();
      expect(await overlappingText(table)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBe(0);
      await page.keyboard.press("Escape");

      // Scrolled to its end, the rows that come into view hold the same shape.
      await table.locator("xpath=..").evaluate((frame) => frame.scrollTo({ top: frame.scrollHeight }));
      await expect(keyCell(page, "STRIPE_SECRET_KEY")).toBeInViewport();
      expect(await overlappingText(table)).toEqual([]);
      expect(await cutKeys(table)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBe(0);
    });

    test("at 1920×1200 the drawer keeps each label by its field, and shows tag colours", async ({
      signedIn: page,
      service,
      seededProject,
    }) => {
      await seedImportingFolder(service, seededProject);
      await page.setViewportSize({ width: 1920, height: 1200 });
      await openApp(page, seededProject);
      const tagged = rowOf(page, "APP_NAME");
      // The drawer shows each tag's colour as the table does.
      const tableDot = tagged.locator("[data-slot=badge] span[aria-hidden]").first();
      await expect(tableDot).toHaveCSS("background-color", "rgb(225, 29, 72)");
      await tagged.getByRole("button", { name: "Open APP_NAME", exact: true }).click();
      const drawer = page.getByRole("dialog", { name: "APP_NAME" });
      const comment = drawer.getByRole("textbox", { name: "Comment" });
      await expect(comment).toBeVisible();

      // From the bottom of the label's text (not of its box, which a stretched row makes taller) to the field.
      for (const name of ["Name", "Comment"]) {
        const gap = await drawer.getByRole("textbox", { name, exact: true }).evaluate((field) => {
          const label = (field as HTMLInputElement).labels?.[0];
          if (!label) throw new Error("the field has no label");
          const text = document.createRange();
          text.selectNodeContents(label);
          return field.getBoundingClientRect().top - text.getBoundingClientRect().bottom;
        });
        expect(gap, `${name}: label to field`).toBeGreaterThanOrEqual(0);
        expect(gap, `${name}: label to field`).toBeLessThanOrEqual(12);
      }

      const backend = drawer.getByRole("checkbox", { name: "backend" });
      await expect(backend).toBeChecked();
      const dot = drawer
        .locator("label")
        .filter({ has: page.getByRole("checkbox", { name: "backend" }) })
        .locator("span[aria-hidden]")
        .first();
      await expect(dot).toHaveCSS("background-color", "rgb(225, 29, 72)");
    });
  });
}
