import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";
import { seedDevImports } from "../support/imports.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/** A project's secret imports (the list with the keys each provides, the dialogs) and integrations. */
for (const theme of ["light", "dark"] as const) {
  test(`imports and integrations tour in the ${theme} theme`, async ({ signedIn: page, service }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 1440, height: 900 });
    const shot = (name: string, fullPage = false) =>
      page.screenshot({ path: `${dir}${theme}-${name}.png`, animations: "disabled", fullPage });

    const { project } = await service(endpoints["projects.create"], {
      body: { projectName: uniqueName("Payments"), shouldCreateDefaultEnvs: true },
    });
    try {
      const workspaceId = project.id;
      const secrets: [string, string][] = [
        ["staging", "DATABASE_URL"],
        ["staging", "REDIS_URL"],
        ["staging", "SENTRY_DSN"],
        ["prod", "DATABASE_URL"],
        ["prod", "STRIPE_SECRET_KEY"],
        ["prod", "STRIPE_WEBHOOK_SECRET"],
        ["dev", "SENTRY_DSN"],
      ];
      for (const name of ["billing", "webhooks"]) {
        await service(endpoints["folders.create"], { body: { workspaceId, environment: "dev", name, path: "/" } });
      }
      await seedDevImports(service, workspaceId, secrets);

      await page.goto(`/projects/${project.id}/secret-imports?environment=dev`);
      await expect(page.getByText("STRIPE_WEBHOOK_SECRET")).toBeVisible();
      await shot("i1-imports");

      await page.getByRole("button", { name: "Reorder prod:/, position 2 of 2" }).focus();
      await shot("i2-imports-handle-focused");

      await page.getByRole("button", { name: "Add import", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Add import" });
      await dialog.getByRole("button", { name: "Add import" }).click();
      await expect(dialog.getByText("Choose the environment to import from")).toBeVisible();
      await shot("i3-add-import-invalid");
      await page.keyboard.press("Escape");

      await page.getByRole("button", { name: "Remove import staging:/" }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await shot("i4-remove-import");
      await page.keyboard.press("Escape");

      await page.goto(`/projects/${project.id}/secret-imports?environment=staging`);
      await expect(page.getByRole("heading", { name: "No imports in this folder" })).toBeVisible();
      await shot("i5-imports-empty");

      await page.goto(`/projects/${project.id}/integrations`);
      await expect(page.getByRole("heading", { name: "No integrations in this project" })).toBeVisible();
      await shot("n1-integrations-empty");

      for (const [integration, app, sourceEnvironment] of [
        ["github", "acme/payments-api", "prod"],
        ["vercel", "payments-dashboard", "staging"],
      ] as const) {
        const { integrationAuth } = await service(endpoints["integrationAuths.create"], {
          body: { workspaceId, integration, accessToken: uniqueName("token") },
        });
        await service(endpoints["integrations.create"], {
          body: { integrationAuthId: integrationAuth.id, sourceEnvironment, secretPath: "/", app },
        });
      }
      await page.reload();
      await expect(page.getByRole("table", { name: "Integrations" }).getByText("acme/payments-api")).toBeVisible();
      await shot("n2-integrations");

      await page.getByRole("button", { name: /^Delete integration acme\/payments-api/ }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await shot("n3-delete-integration");
    } finally {
      await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
    }
  });
}
