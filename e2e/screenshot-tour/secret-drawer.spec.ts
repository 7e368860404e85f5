import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/** The secret drawer: details with the value revealed and an invalid field, then the version history with a diff. */
for (const theme of ["light", "dark"] as const) {
  test(`secret drawer tour in the ${theme} theme`, async ({ signedIn: page, service }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 1440, height: 900 });
    const shot = (name: string) => page.screenshot({ path: `${dir}${theme}-${name}.png`, animations: "disabled" });

    const { project } = await service(endpoints["projects.create"], {
      body: { projectName: uniqueName("Payments"), shouldCreateDefaultEnvs: true },
    });
    try {
      const at = { workspaceId: project.id, environment: "dev", secretPath: "/" };
      const tags = await Promise.all(
        ["backend", "payments", "pci"].map(
          async (slug) =>
            (
              await service(endpoints["tags.create"], {
                params: { workspaceId: project.id },
                body: { slug, color: "#6366f1" },
              })
            ).workspaceTag,
        ),
      );
      await service(endpoints["secrets.create"], {
        params: { secretName: "DATABASE_URL" },
        body: {
          ...at,
          secretValue: "postgres://payments:s3cret-one@db.internal:5432/payments\nsslmode=require",
          secretComment: "Primary database",
          tagIds: [tags[0]?.id ?? ""],
        },
      });
      await service(endpoints["secrets.update"], {
        params: { secretName: "DATABASE_URL" },
        body: {
          ...at,
          secretValue: "postgres://payments:s3cret-two@db.internal:5432/payments\nsslmode=verify-full",
          secretComment: "Primary database, rotated",
          secretMetadata: [{ key: "owner", value: "payments-team" }],
          secretReminderNote: "Rotate the password",
          secretReminderRepeatDays: 90,
        },
      });

      await page.goto(`/projects/${project.id}/secrets?env=dev`);
      await page.getByRole("button", { name: "Open DATABASE_URL", exact: true }).click();
      const drawer = page.getByRole("dialog", { name: "DATABASE_URL" });
      await expect(drawer.getByLabel("Name", { exact: true })).toHaveValue("DATABASE_URL");
      await expect(drawer.getByRole("checkbox", { name: "pci" })).toBeVisible();
      await shot("s1-secret-drawer");

      await drawer.getByRole("button", { name: "Reveal value" }).click();
      await drawer.getByLabel("Repeat every (days)").fill("400");
      await drawer.getByLabel("Comment").click();
      await expect(drawer.getByText("A whole number of days from 1 to 365")).toBeVisible();
      await drawer
        .getByText("A whole number of days from 1 to 365")
        .evaluate((el) => el.scrollIntoView({ block: "center" }));
      await shot("s2-secret-drawer-editing");
      await drawer.getByRole("button", { name: "Discard changes" }).click();

      await drawer.getByRole("tab", { name: "Version history" }).click();
      await drawer.getByRole("button", { name: "Reveal values" }).click();
      await expect(drawer.getByRole("list", { name: "Value: version 1 → version 2" })).toBeVisible();
      await shot("s3-secret-versions-diff");

      await drawer.getByRole("button", { name: /^Version 1/ }).click();
      await drawer.getByRole("button", { name: "Restore version 1" }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await shot("s4-secret-restore-confirm");
    } finally {
      await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
    }
  });
}
