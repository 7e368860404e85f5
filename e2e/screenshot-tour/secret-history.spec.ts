import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/** A folder's history and a rollback preview, light and dark, at 1440 and 390 px. */
test("folder history and rollback preview", async ({ signedIn: page, service }) => {
  const { project } = await service(endpoints["projects.create"], {
    body: { projectName: uniqueName("History"), shouldCreateDefaultEnvs: true },
  });
  try {
    const where = { workspaceId: project.id, environment: "dev", secretPath: "/" };
    const create = (secretName: string, secretValue: string) =>
      service(endpoints["secrets.create"], { params: { secretName }, body: { ...where, secretValue } });
    const update = (secretName: string, secretValue: string) =>
      service(endpoints["secrets.update"], { params: { secretName }, body: { ...where, secretValue } });
    await create("DATABASE_URL", "postgres://db.internal:5432/payments");
    await create("STRIPE_API_KEY", "sk_live_51Hx");
    await create("REDIS_URL", "redis://cache.internal:6379");
    await service(endpoints["folders.create"], { body: { ...where, path: "/", name: "jobs" } });
    await update("DATABASE_URL", "postgres://db-replica.internal:5432/payments");
    await update("STRIPE_API_KEY", "sk_live_rotated");
    await create("FEATURE_FLAGS_URL", "https://flags.internal");
    await service(endpoints["secrets.delete"], { params: { secretName: "REDIS_URL" }, body: where });

    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
      for (const theme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: theme });
        const shot = (name: string, fullPage = true) =>
          page.screenshot({ path: `${dir}${theme}-${width}-${name}.png`, animations: "disabled", fullPage });
        await page.goto(`/projects/${project.id}/secret-history?env=dev`);
        const rows = page.getByRole("listitem").filter({ hasText: "#" });
        await expect(rows.first()).toBeVisible();
        await rows
          .filter({ hasText: "#5" })
          .getByRole("button", { name: /Show what change/ })
          .click();
        await expect(page.getByRole("region", { name: "Changed" })).toBeVisible();
        await shot("secret-history");
        await rows.filter({ hasText: "#3" }).getByRole("button", { name: "Preview rollback" }).click();
        const preview = page.getByRole("dialog");
        await expect(preview.getByRole("region", { name: "Will change" })).toBeVisible();
        await preview.getByRole("button", { name: "Reveal DATABASE_URL" }).click();
        await expect(preview).toContainText("db-replica");
        await shot("secret-history-rollback-preview", false);
        await page.keyboard.press("Escape");
      }
    }
  } finally {
    await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
  }
});
