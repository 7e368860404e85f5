import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test } from "../support/fixtures.ts";
import { sidewaysOverflow, widestElements } from "../support/layout.ts";
import { methodRow } from "../support/identities.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/** Universal auth's form with "Add my address" used and "Would this address pass?" answering for both lists. */
for (const theme of ["light", "dark"] as const) {
  for (const width of [390, 1440] as const) {
    test(`trusted IPs check in the ${theme} theme at ${width} px`, async ({
      signedIn: page,
      seededIdentity,
      service,
    }) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width, height: 900 });
      const identityId = seededIdentity.identity.id;
      await service(endpoints["universalAuth.attach"], {
        params: { identityId },
        body: {
          accessTokenTrustedIps: [{ ipAddress: "10.0.0.0/8" }],
          clientSecretTrustedIps: [{ ipAddress: "203.0.113.0/24" }, { ipAddress: "10.1.0.0/16" }],
        },
      });
      await page.goto(`/identities/${identityId}`);
      await methodRow(page, "Universal auth").getByRole("button", { name: "Edit Universal auth" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit Universal auth" });
      const check = dialog.getByRole("region", { name: "Would this address pass?" });
      await expect(check.getByRole("button", { name: "Check my address" })).toBeVisible();
      await dialog.getByRole("button", { name: "Add my address to Access token trusted IPs" }).click();
      await check.getByRole("button", { name: "Check my address" }).click();
      await expect(check.getByRole("listitem")).toHaveCount(2);
      expect(await sidewaysOverflow(page), `sideways overflow by ${await widestElements(page)}`).toBe(0);
      await check.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${dir}${theme}-${width}-trusted-ips-check.png`, animations: "disabled" });
      await dialog
        .getByRole("button", { name: "Add my address to Client secret trusted IPs" })
        .scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${dir}${theme}-${width}-trusted-ips-editor.png`, animations: "disabled" });
    });
  }
}
