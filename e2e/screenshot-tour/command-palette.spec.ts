import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";
import { seedFolder, seedSecret } from "../support/secrets.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/** The command palette (before typing and searching a secret key) and the shortcuts list, both themes, 390 and 1440 px. */
test("command palette tour", async ({ signedIn: page, service }) => {
  const { project } = await service(endpoints["projects.create"], {
    body: { projectName: uniqueName("Payments"), shouldCreateDefaultEnvs: true },
  });
  try {
    await seedFolder(service, project, "app", "/", "prod");
    for (const key of ["DATABASE_URL", "DATABASE_REPLICA_URL", "STRIPE_API_KEY"]) {
      await seedSecret(service, project, { key, value: "not-shown", environment: "prod", secretPath: "/app" });
    }
    for (const theme of ["light", "dark"] as const) {
      for (const width of [390, 1440] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        const shot = (name: string) =>
          page.screenshot({ path: `${dir}${theme}-${width}-${name}.png`, animations: "disabled" });
        await page.goto("/identities");
        await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
        await shot("palette-closed");

        await page.getByRole("button", { name: "Search (command palette)" }).click();
        const palette = page.getByRole("dialog", { name: "Command palette" });
        await expect(palette.getByRole("option", { name: "Identities", exact: true })).toBeVisible();
        await expect(palette.getByRole("listbox")).not.toHaveAttribute("aria-busy", "true");
        await shot("palette-open");

        await palette.getByRole("combobox").fill("database");
        await expect(palette.getByRole("option", { name: /^DATABASE_URL — / }).first()).toBeVisible();
        await expect(palette.getByRole("listbox")).not.toHaveAttribute("aria-busy", "true");
        await shot("palette-search");
        await page.keyboard.press("Escape");
        await expect(palette).toBeHidden();

        await page.keyboard.press("?");
        const shortcuts = page.getByRole("dialog", { name: "Keyboard shortcuts" });
        await expect(shortcuts).toBeVisible();
        await shot("shortcuts");
        await page.keyboard.press("Escape");
        await expect(shortcuts).toBeHidden();
      }
    }
  } finally {
    await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
  }
});
