import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { animationsSettled } from "./layout.ts";

/**
 * Scans once the page is at rest: a list refreshing in the background is dimmed (aria-busy) and
 * fades back, and text caught mid-fade reads as low contrast. A region busy for longer is scanned
 * as it is.
 */
export async function seriousViolations(page: Page) {
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 5_000 })
    .catch(() => undefined);
  await animationsSettled(page);
  // axe.run() in the page itself. The default (runPartial in each frame, then finishRun in a new
  // blank page) exists for cross-origin frames, which the console has none of; it opens a page per
  // scan and hands every result across, which took 50 s of one scan of the event-type picker.
  const { violations } = await new AxeBuilder({ page }).setLegacyMode().analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}
