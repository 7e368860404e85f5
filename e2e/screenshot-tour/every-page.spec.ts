import { mkdirSync } from "node:fs";
import { csrf, expect, test } from "../support/fixtures.ts";
import { everyPage, seedWorld, visit } from "../support/pages.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });
/** The window widths to photograph, e.g. `KEYHOLD_SCREENSHOT_WIDTHS=390,1440`. */
const widths = (process.env.KEYHOLD_SCREENSHOT_WIDTHS ?? "390,1440,1920").split(",").map(Number);
const heights: Record<number, number> = { 390: 844, 1440: 900, 1920: 1200 };
/** Only the named stops of the catalogue, e.g. `KEYHOLD_SCREENSHOT_PAGES=secrets-import,secrets-export`; all by default. */
const only = process.env.KEYHOLD_SCREENSHOT_PAGES?.split(",");
const stops = everyPage.filter((stop) => !only || only.includes(stop.name));

/**
 * Every page, dialog and drawer of the console (the catalogue in support/pages.ts) at each width in
 * both themes, as `<width>-<theme>-<page>.png` in KEYHOLD_SCREENSHOT_DIR (default e2e/screenshots/).
 */
for (const theme of ["light", "dark"] as const) {
  test(`every page at ${widths.join(", ")} px in the ${theme} theme`, async ({
    page,
    service,
    session,
    adminToken,
  }) => {
    test.setTimeout(120_000 * widths.length);
    await page.emulateMedia({ colorScheme: theme });
    const world = await seedWorld(service, session);
    const failed: string[] = [];
    try {
      for (const width of widths) {
        await page.setViewportSize({ width, height: heights[width] ?? 900 });
        await page.context().clearCookies();
        let signedIn = false;
        for (const stop of [...stops].sort((a, b) => Number(!a.signedOut) - Number(!b.signedOut))) {
          if (!stop.signedOut && !signedIn) {
            const response = await page.request.post("/bff/login", {
              headers: csrf,
              data: { accessToken: adminToken },
            });
            expect(response.status()).toBe(200);
            signedIn = true;
          }
          // A page that does not come up is photographed as it is, and named in the test's result.
          await visit(page, stop, world).catch((error: unknown) => failed.push(`${width} ${stop.name}: ${error}`));
          await page.screenshot({
            path: `${dir}/${width}-${theme}-${stop.name}.png`,
            animations: "disabled",
            // A dialog or drawer covers the window: the window is the picture.
            fullPage: !(await page.getByRole("dialog").or(page.getByRole("alertdialog")).first().isVisible()),
          });
        }
      }
      expect(failed).toEqual([]);
    } finally {
      await world.remove();
    }
  });
}
