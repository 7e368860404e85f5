import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";

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
      const roleSlug = uniqueName("prod-reader");
      await service(endpoints["projectRoles.create"], {
        params: { projectId },
        body: {
          name: "Prod reader",
          slug: roleSlug,
          permissions: [
            { subject: "secrets", action: ["readValue", "describeSecret"], conditions: { environment: "prod" } },
          ],
        },
      });
      for (const [name, path] of [
        ["app", "/"],
        ["db", "/app"],
        ["billing", "/"],
      ] as const) {
        await service(endpoints["folders.create"], {
          body: { workspaceId: projectId, environment: "prod", name, path },
        });
      }
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
      } finally {
        for (const identityId of identities) await service(endpoints["identities.delete"], { params: { identityId } });
      }
    });
  }
}
