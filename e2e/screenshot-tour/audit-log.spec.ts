import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/** The audit log page: the list, the filter chips with the event type picker open, an event's drawer. */
for (const theme of ["light", "dark"] as const) {
  test(`audit log tour in the ${theme} theme`, async ({ signedIn: page, service, session }) => {
    await page.emulateMedia({ colorScheme: theme });
    const { project } = await service(endpoints["projects.create"], {
      body: { projectName: uniqueName("Payments"), shouldCreateDefaultEnvs: true },
    });
    const { identity } = await service(endpoints["identities.create"], {
      body: { name: uniqueName("ci-deployer"), organizationId: session.organization.id, role: "member" },
    });
    try {
      const at = { workspaceId: project.id, environment: "prod", secretPath: "/" };
      for (const key of ["DATABASE_URL", "STRIPE_API_KEY", "REDIS_URL", "SENTRY_DSN"]) {
        await service(endpoints["secrets.create"], { params: { secretName: key }, body: { ...at, secretValue: "x" } });
      }
      await service(endpoints["secrets.update"], {
        params: { secretName: "DATABASE_URL" },
        body: { ...at, secretValue: "y", secretComment: "rotated" },
      });
      await service(endpoints["secrets.delete"], { params: { secretName: "SENTRY_DSN" }, body: at });
      await service(endpoints["secrets.list"], { query: { ...at, viewSecretValue: "true" } });

      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
        const shot = (name: string) =>
          page.screenshot({ path: `${dir}${theme}-audit-log-${name}-${width}.png`, animations: "disabled" });
        await page.goto(`/audit-log?range=24h&projectId=${project.id}`);
        const table = page.getByRole("table", { name: "Audit events" });
        await expect(table.getByRole("row", { name: /^Update secret by/ })).toBeVisible();
        await shot("page");

        await page.getByRole("button", { name: "Add filter" }).click();
        await page.getByRole("menuitem", { name: "Event type" }).click();
        const picker = page.getByRole("dialog", { name: "Event filter" });
        await picker.getByRole("option", { name: /^Update secret$/ }).click();
        await picker.getByRole("option", { name: /^Delete secret$/ }).click();
        await expect(page).toHaveURL(/eventType=update-secret%2Cdelete-secret/);
        await expect(table.getByRole("row", { name: /^Delete secret by/ })).toBeVisible();
        await shot("filter-chips");
        await page.keyboard.press("Escape");

        await table.getByRole("row", { name: /^Update secret by/ }).click();
        await expect(page.getByRole("dialog", { name: "Update secret" })).toBeVisible();
        await shot("drawer");
        await page.keyboard.press("Escape");

        await page.goto(`/audit-log?range=1h&projectId=${project.id}&eventType=create-identity`);
        await expect(page.getByRole("heading", { name: "No events in this window" })).toBeVisible();
        await shot("empty");
      }
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`/projects/${project.id}`);
      await expect(page.getByRole("heading", { name: "Audit log retention" })).toBeVisible();
      await page.screenshot({
        path: `${dir}${theme}-audit-retention-1440.png`,
        animations: "disabled",
        fullPage: true,
      });
    } finally {
      await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
      await service(endpoints["identities.delete"], { params: { identityId: identity.id } });
    }
  });
}
