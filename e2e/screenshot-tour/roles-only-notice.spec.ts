import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/**
 * Effective access on a server with no route to list an identity's privileges: the roles alone
 * are counted, and the view says so. The browser gets the answer the BFF gives for such a server.
 */
for (const theme of ["light", "dark"] as const) {
  for (const width of [390, 1440]) {
    test(`effective access counting roles only at ${width} px in the ${theme} theme`, async ({
      signedIn: page,
      service,
      session,
      seededProject,
    }) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width, height: 900 });
      const projectId = seededProject.id;
      const { identity } = await service(endpoints["identities.create"], {
        body: { name: uniqueName("deploy-bot"), organizationId: session.organization.id, role: "member" },
      });
      await service(endpoints["identityMemberships.add"], {
        params: { projectId, identityId: identity.id },
        body: { roles: [{ role: "viewer", isTemporary: false }] },
      });
      await page.route("**/api/v2/identity-project-additional-privilege?*", (route) =>
        route.fulfill({
          status: 404,
          contentType: "application/json",
          body: JSON.stringify({
            reqId: "req-1",
            statusCode: 404,
            error: "NotFound",
            message: "Route GET:/api/v1/additional-privilege/identity not found",
          }),
        }),
      );
      try {
        await page.goto(`/projects/${projectId}/access?identity=${identity.id}`);
        await page
          .getByRole("region", { name: /^Additional privileges of / })
          .getByRole("button", { name: "Effective access" })
          .click();
        const access = page.getByRole("dialog", { name: /^Effective access of / });
        await expect(access.getByRole("note")).toHaveText(
          "Additional privileges could not be read from this server; counted: roles only.",
        );
        await expect(
          access
            .getByRole("region", { name: "Access in prod" })
            .getByText("role Viewer")
            .filter({ visible: true })
            .first(),
        ).toBeVisible();
        await page.screenshot({
          path: `${dir}${width}-${theme}-effective-access-roles-only.png`,
          animations: "disabled",
        });
      } finally {
        await service(endpoints["identities.delete"], { params: { identityId: identity.id } });
      }
    });
  }
}
