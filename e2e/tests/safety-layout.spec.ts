import { expect, test, csrf } from "../support/fixtures.ts";
import {
  cutOffControls,
  overlappingText,
  sidewaysOverflow,
  valueLikePlaceholders,
  widestElements,
} from "../support/layout.ts";
import { everyPage, seedWorld, visit } from "../support/pages.ts";

/**
 * Every page, dialog and drawer of the console at a phone's width (390×844) in both themes: the
 * document never scrolls sideways (wide tables scroll inside their own frame), no control is cut
 * off at the side, an open dialog fits the window, no two visible text boxes of a table overlap,
 * and no empty field shows a sample value as its placeholder (samples are in the help text). Then the places a page
 * keeps in its URL: going from Secrets to Secret imports (and back) stays in the same environment
 * and folder. And a table row's two lines keep clear of its borders.
 */
for (const theme of ["light", "dark"] as const) {
  test.describe(theme, () => {
    test.use({ colorScheme: theme });

    test("every page is usable at 390 px: nothing scrolls sideways or is cut off, dialogs fit, table text does not overlap", async ({
      page,
      service,
      session,
      adminToken,
    }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width: 390, height: 844 });
      const world = await seedWorld(service, session);
      try {
        let signedIn = false;
        for (const stop of [...everyPage].sort((a, b) => Number(!a.signedOut) - Number(!b.signedOut))) {
          await test.step(stop.name, async () => {
            if (!stop.signedOut && !signedIn) {
              const response = await page.request.post("/bff/login", {
                headers: csrf,
                data: { accessToken: adminToken },
              });
              expect(response.status()).toBe(200);
              signedIn = true;
            }
            // A page that does not come up fails the test, and the walk goes on to the next.
            const error = await visit(page, stop, world).then(
              () => undefined,
              (reason: unknown) => String(reason),
            );
            expect.soft(error, `${stop.name} comes up`).toBeUndefined();
            if (error) return;
            const overflow = await sidewaysOverflow(page);
            expect.soft(overflow, `${stop.name} scrolls sideways: ${(await widestElements(page)).join("; ")}`).toBe(0);
            expect.soft(await cutOffControls(page), `${stop.name}: controls cut off at the side`).toEqual([]);
            expect
              .soft(await valueLikePlaceholders(page), `${stop.name}: placeholders that read as values`)
              .toEqual([]);
            for (const dialog of await page.locator('[role="dialog"], [role="alertdialog"]').all()) {
              if (!(await dialog.isVisible())) continue;
              const fits = await dialog.evaluate(
                (el) =>
                  el.getBoundingClientRect().left >= -0.5 &&
                  el.getBoundingClientRect().right <= window.innerWidth + 0.5 &&
                  el.scrollWidth <= el.clientWidth,
              );
              expect
                .soft(fits, `${stop.name}: the open dialog fits the window and does not scroll sideways`)
                .toBe(true);
            }
            for (const table of await page.getByRole("table").all()) {
              if (!(await table.isVisible())) continue;
              const name = (await table.getAttribute("aria-label")) ?? "a table";
              expect.soft(await overlappingText(table), `${stop.name}: text of ${name} overlaps`).toEqual([]);
            }
          });
        }
      } finally {
        await world.remove();
      }
    });

    test("going from Secrets to Secret imports and back keeps the environment and folder", async ({
      signedIn: page,
      service,
      session,
    }) => {
      const world = await seedWorld(service, session);
      try {
        const { project } = world;
        await page.goto(`/projects/${project.id}/secrets?env=staging&path=/database`);
        await expect(page.getByRole("button", { name: "Open REDIS_URL", exact: true })).toBeVisible();
        const nav = page.getByRole("navigation", { name: "Main" });

        await nav.getByRole("link", { name: "Secret imports" }).click();
        await expect(page.getByRole("heading", { level: 1, name: "Secret imports" })).toBeVisible();
        await expect(page).toHaveURL(/[?&]env=staging(&|$)/);
        await expect(page).toHaveURL(/[?&]path=%2Fdatabase(&|$)/);
        const folder = page.getByRole("form", { name: "Folder" });
        await expect(folder.getByLabel("Environment")).toHaveValue("staging");
        await expect(folder.getByLabel("Folder path")).toHaveValue("/database");

        // Another folder chosen on the imports page; Secrets opens there.
        await folder.getByLabel("Environment").selectOption("prod");
        await folder.getByLabel("Folder path").fill("/shared");
        await folder.getByRole("button", { name: "Show" }).click();
        await expect(page).toHaveURL(/[?&]env=prod&path=%2Fshared$/);
        await nav.getByRole("link", { name: "Secrets", exact: true }).click();
        await expect(page.getByRole("button", { name: "Open STRIPE_SECRET_KEY", exact: true })).toBeVisible();
        await expect(page).toHaveURL(/\/secrets\?env=prod&path=%2Fshared$/);

        // A link of the old form (`?environment=`) still opens the environment it names.
        await page.goto(`/projects/${project.id}/secret-imports?environment=staging&path=/database`);
        await expect(folder.getByLabel("Environment")).toHaveValue("staging");
        await expect(folder.getByLabel("Folder path")).toHaveValue("/database");
      } finally {
        await world.remove();
      }
    });

    test("a projects list row keeps its name and description clear of its borders", async ({
      signedIn: page,
      service,
      session,
    }) => {
      const world = await seedWorld(service, session);
      try {
        await page.goto("/projects");
        const link = page.getByRole("link", { name: world.project.name, exact: true });
        await expect(link).toBeVisible();
        const row = page.getByRole("row").filter({ has: link });
        const description = row.getByText(/Card payments, payouts/);
        const rowBox = await row.boundingBox();
        const nameBox = await link.boundingBox();
        const descriptionBox = await description.boundingBox();
        if (!rowBox || !nameBox || !descriptionBox) throw new Error("the row is not laid out");
        expect(nameBox.y - rowBox.y).toBeGreaterThanOrEqual(6);
        expect(rowBox.y + rowBox.height - (descriptionBox.y + descriptionBox.height)).toBeGreaterThanOrEqual(6);
      } finally {
        await world.remove();
      }
    });
  });
}
