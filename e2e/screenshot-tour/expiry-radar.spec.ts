import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test } from "../support/fixtures.ts";
import { sidewaysOverflow } from "../support/layout.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

const HOUR = 60 * 60 * 1000;

/**
 * The expiry radar with one of each kind of ending (a token, a client
 * secret, a temporary role, a temporary privilege and an expired one), and the extend dialog,
 * in both themes at a phone's width and a desktop's.
 */
for (const theme of ["light", "dark"] as const) {
  for (const width of [390, 1440] as const) {
    test(`expiry radar in the ${theme} theme at ${width} px`, async ({
      signedIn: page,
      service,
      seededProject,
      memberIdentity,
    }) => {
      const identity = memberIdentity.identity;
      const identityId = identity.id;
      const projectId = seededProject.id;
      await service(endpoints["tokenAuth.attach"], {
        params: { identityId },
        body: { accessTokenTTL: 6 * 3600, accessTokenMaxTTL: 6 * 3600 },
      });
      await service(endpoints["tokenAuth.createToken"], { params: { identityId }, body: { name: "deploy-pipeline" } });
      await service(endpoints["universalAuth.attach"], { params: { identityId }, body: {} });
      await service(endpoints["universalAuth.createClientSecret"], {
        params: { identityId },
        body: { description: "github-actions", ttl: 20 * 3600 },
      });
      const soon = (range: string, startOffset = 0) => ({
        isTemporary: true as const,
        temporaryMode: "relative" as const,
        temporaryRange: range,
        temporaryAccessStartTime: new Date(Date.now() + startOffset).toISOString(),
      });
      await service(endpoints["identityMemberships.add"], {
        params: { projectId, identityId },
        body: {
          roles: [
            { role: "viewer", isTemporary: false },
            { role: "member", ...soon("3d") },
          ],
        },
      });
      for (const [slug, type] of [
        ["read-prod-db", soon("2h")],
        ["hotfix-access", soon("1h", -3 * HOUR)],
      ] as const) {
        await service(endpoints["identityPrivileges.create"], {
          body: { identityId, projectId, slug, permissions: [{ subject: "secrets", action: ["read"] }], type },
        });
      }

      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/expiring?window=all");
      const list = page.getByRole("list", { name: "Endings: All" });
      await expect(list.getByRole("listitem").filter({ hasText: identity.name })).toHaveCount(5);
      expect(await sidewaysOverflow(page)).toBe(0);
      await page.screenshot({ path: `${dir}${theme}-${width}-expiry-radar.png`, fullPage: true });

      await list.getByRole("button", { name: `Extend read-prod-db of ${identity.name}` }).click();
      await expect(page.getByRole("dialog", { name: "Extend read-prod-db" })).toBeVisible();
      await page.screenshot({ path: `${dir}${theme}-${width}-expiry-radar-extend.png`, animations: "disabled" });
      await page.keyboard.press("Escape");

      await list.getByRole("button", { name: `Revoke deploy-pipeline of ${identity.name}` }).click();
      await expect(page.getByRole("alertdialog", { name: "Revoke this access token?" })).toBeVisible();
      await page.screenshot({ path: `${dir}${theme}-${width}-expiry-radar-revoke.png`, animations: "disabled" });
    });
  }
}
