import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";
import { seedDevImports } from "../support/imports.ts";
import { sidewaysOverflow, widestElements } from "../support/layout.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/** The preview of a move and of a removal on the secret imports page, light and dark, phone and desktop. */
for (const theme of ["light", "dark"] as const) {
  for (const width of [390, 1440] as const) {
    test(`imports preview in the ${theme} theme at ${width} px`, async ({ signedIn: page, service }) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width, height: 900 });
      const shot = async (name: string) => {
        expect(await sidewaysOverflow(page), `${name}: sideways overflow by ${await widestElements(page)}`).toBe(0);
        await page.screenshot({ path: `${dir}${theme}-${width}-${name}.png`, animations: "disabled" });
      };
      const { project } = await service(endpoints["projects.create"], {
        body: { projectName: uniqueName("Payments"), shouldCreateDefaultEnvs: true },
      });
      try {
        const workspaceId = project.id;
        const secrets: [string, string][] = [
          ["staging", "DATABASE_URL"],
          ["staging", "REDIS_URL"],
          ["staging", "STRIPE_SECRET_KEY"],
          ["prod", "DATABASE_URL"],
          ["prod", "REDIS_URL"],
          ["prod", "STRIPE_SECRET_KEY"],
          ["prod", "STRIPE_WEBHOOK_SECRET"],
        ];
        await seedDevImports(service, workspaceId, secrets);
        await page.goto(`/projects/${project.id}/secret-imports?environment=dev`);
        await expect(page.getByText("STRIPE_WEBHOOK_SECRET")).toBeVisible();

        await page.getByRole("button", { name: "Move prod:/ up" }).click();
        await expect(page.getByRole("alertdialog", { name: "Move prod:/ to position 1?" })).toBeVisible();
        await shot("imports-move-preview");
        await page.keyboard.press("Escape");

        await page.getByRole("button", { name: "Remove import prod:/" }).click();
        await expect(page.getByRole("alertdialog").getByRole("listitem")).toHaveCount(4);
        await shot("imports-remove-preview");
        await page.keyboard.press("Escape");
      } finally {
        await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
      }
    });
  }
}
