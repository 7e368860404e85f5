import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test } from "../support/fixtures.ts";
import { seedWorld } from "../support/pages.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/** The roles pages of a project: the list, a custom role's builder and JSON view, a built-in role, the dialogs. */
for (const theme of ["light", "dark"] as const) {
  test(`roles tour in the ${theme} theme`, async ({ signedIn: page, service, session }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 1440, height: 900 });
    const shot = (name: string, fullPage = false) =>
      page.screenshot({ path: `${dir}${theme}-${name}.png`, animations: "disabled", fullPage });

    // The catalogue's world holds a custom role with conditions and an inverted rule.
    const world = await seedWorld(service, session);
    const { project } = world;
    try {
      await service(endpoints["projectRoles.create"], {
        params: { projectId: project.id },
        body: {
          name: "Release manager",
          slug: "release-manager",
          description: "Deploys to staging and production",
          permissions: [{ subject: "environments", action: ["read", "edit"] }],
        },
      });

      await page.goto(`/projects/${project.id}/roles`);
      await expect(page.getByRole("link", { name: "Dev secret reader" })).toBeVisible();
      await shot("r1-roles");

      await page.getByRole("button", { name: "Create role" }).click();
      const dialog = page.getByRole("dialog", { name: "Create role" });
      await dialog.getByLabel("Name").fill("Staging deployer");
      await expect(dialog.getByLabel("Slug")).toHaveValue("staging-deployer");
      await shot("r2-create-role");
      await page.keyboard.press("Escape");
      await page
        .getByRole("alertdialog", { name: "Discard unsaved changes?" })
        .getByRole("button", { name: "Discard changes" })
        .click();

      await page.getByRole("link", { name: "Dev secret reader" }).click();
      await expect(page.getByRole("group", { name: "Secrets", exact: true })).toBeVisible();
      await shot("r3-role-builder");
      // A change not saved yet: the save bar, and a validation message after trying to save.
      await page
        .getByRole("group", { name: "Roles", exact: true })
        .getByRole("button", { name: "Add another Roles rule" })
        .click();
      await page.getByRole("button", { name: "Save permissions" }).click();
      await expect(page.getByText("Choose at least one action.")).toBeVisible();
      await page.getByText("Choose at least one action.").scrollIntoViewIfNeeded();
      await shot("r4-role-builder-invalid");
      await page.getByRole("button", { name: "Discard changes" }).click();

      await page.getByRole("tab", { name: "JSON" }).click();
      await expect(page.getByRole("region", { name: "Permission rules as JSON" })).toBeVisible();
      await shot("r5-role-json");

      await page.goto(`/projects/${project.id}/roles/admin`);
      await expect(page.getByRole("heading", { level: 1, name: "Admin" })).toBeVisible();
      await shot("r6-built-in-role");

      await page.goto(`/projects/${project.id}/roles/release-manager`);
      await page.getByRole("button", { name: "Delete role" }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await shot("r7-delete-role");
    } finally {
      await world.remove();
    }
  });
}
