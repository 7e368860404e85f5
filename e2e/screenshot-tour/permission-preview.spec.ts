import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";
import { seedRole } from "../support/roles.ts";
import { seedFolders } from "../support/secrets.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/** The permission-change preview a role's save passes through, at a phone's and a desktop's width. */
for (const theme of ["light", "dark"] as const) {
  for (const width of [390, 1440]) {
    test(`permission preview at ${width} px in the ${theme} theme`, async ({
      signedIn: page,
      service,
      session,
      seededProject,
    }) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width, height: 900 });
      const projectId = seededProject.id;
      const roleSlug = await seedRole(service, projectId, {
        slugPrefix: "prod-reader",
        name: "Prod reader",
        permissions: [
          { subject: "secrets", action: ["readValue", "describeSecret"], conditions: { environment: "prod" } },
        ],
      });
      await seedFolders(service, seededProject, [
        ["prod", "/", "app"],
        ["prod", "/app", "db"],
        ["prod", "/", "billing"],
      ]);
      const identities: string[] = [];
      for (const [name, roles] of [
        ["deploy-bot", [roleSlug]],
        ["billing-sync", [roleSlug, "viewer"]],
      ] as const) {
        const { identity } = await service(endpoints["identities.create"], {
          body: { name: uniqueName(name), organizationId: session.organization.id, role: "member" },
        });
        identities.push(identity.id);
        await service(endpoints["identityMemberships.add"], {
          params: { projectId, identityId: identity.id },
          body: { roles: roles.map((role) => ({ role, isTemporary: false })) },
        });
      }
      try {
        await page.goto(`/projects/${projectId}/roles/${roleSlug}`);
        const secrets = page.getByRole("group", { name: "Secrets", exact: true });
        await secrets.getByRole("checkbox", { name: "Read value" }).uncheck();
        await secrets.getByRole("checkbox", { name: "Create" }).check();
        await page.getByRole("button", { name: "Save permissions" }).click();
        const review = page.getByRole("dialog");
        await review.getByText("Loses Read value in prod: 4 folders").click();
        await page.screenshot({ path: `${dir}${width}-${theme}-permission-preview.png`, animations: "disabled" });
        await review.getByRole("button", { name: "Keep editing" }).click();

        // A temporary privilege's preview with its time slider, then the effective-access view.
        const [deployBot] = identities;
        await page.goto(`/projects/${projectId}/access?identity=${deployBot}`);
        const privileges = page.getByRole("region", { name: /^Additional privileges of / });
        await privileges.getByRole("button", { name: "Add privilege" }).click();
        const dialog = page.getByRole("dialog", { name: "Add privilege" });
        await dialog.getByLabel("Name").fill("billing-write");
        await dialog.getByRole("switch", { name: "Temporary privilege" }).click();
        await dialog.getByRole("textbox", { name: "Duration" }).fill("4h");
        const secretsRules = dialog.getByRole("group", { name: "Secrets", exact: true });
        await secretsRules.getByRole("checkbox", { name: "Edit" }).check();
        const preview = dialog.getByRole("region", { name: "What this changes on secrets" });
        await expect(preview.getByText("Gains Edit in prod: 4 folders")).toBeVisible();
        await preview.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${dir}${width}-${theme}-privilege-preview.png`, animations: "disabled" });
        await page.keyboard.press("Escape");
        await page
          .getByRole("alertdialog", { name: "Discard unsaved changes?" })
          .getByRole("button", { name: "Discard changes" })
          .click();

        await privileges.getByRole("button", { name: "Effective access" }).click();
        const access = page.getByRole("dialog", { name: /^Effective access of / });
        await expect(
          access
            .getByRole("region", { name: "Access in prod" })
            .getByText("role Prod reader")
            .filter({ visible: true })
            .first(),
        ).toBeVisible();
        await page.screenshot({ path: `${dir}${width}-${theme}-effective-access.png`, animations: "disabled" });
      } finally {
        for (const identityId of identities) await service(endpoints["identities.delete"], { params: { identityId } });
      }
    });
  }
}
