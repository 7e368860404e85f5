import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";
import { secretRow } from "../support/secrets.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

const seeds = [
  ["API_BASE_URL", "https://api.example.com", "Public API"],
  ["DATABASE_URL", "postgres://app:secret@db.internal:5432/app", "Primary database"],
  ["DB_HOST", "db.internal", ""],
  ["LEGACY_TOKEN", "tok_3f9a", "Remove after the migration"],
  ["LOG_LEVEL", "info", ""],
  ["MAIL_FROM", "noreply@example.com", ""],
  ["REDIS_URL", "redis://cache.internal:6379", "Sessions"],
  ["SENTRY_DSN", "https://key@sentry.example.com/42", ""],
  ["SMTP_PASSWORD", "smtp-pass-123", "Outgoing mail"],
  ["STRIPE_KEY", "sk_test_51H", "Payments"],
] as const;

/** The staged-changes workflow of the secrets table: marked rows, the bar, the review, at 1440 and 390 px, both themes. */
test("staged changes tour in both themes", async ({ signedIn: page, service }) => {
  const { project } = await service(endpoints["projects.create"], {
    body: { projectName: uniqueName("Staged"), shouldCreateDefaultEnvs: true },
  });
  try {
    const where = { workspaceId: project.id, environment: "dev", secretPath: "/" };
    await Promise.all(
      seeds.map(([key, value, comment]) =>
        service(endpoints["secrets.create"], {
          params: { secretName: key },
          body: { ...where, secretValue: value, secretComment: comment },
        }),
      ),
    );
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/projects/${project.id}/secrets`);

    const stage = async (key: string, value: string) => {
      const row = secretRow(page, key);
      await row.getByRole("button", { name: `Edit value of ${key}` }).click();
      const input = row.getByRole("textbox", { name: `New value of ${key}` });
      await expect(input).not.toHaveValue("");
      await input.fill(value);
      await input.press("Enter");
      await expect(row.getByText("Edited")).toBeVisible();
    };
    await stage("LOG_LEVEL", "debug");
    await stage("REDIS_URL", "redis://cache-2.internal:6379");
    await stage("API_BASE_URL", "https://${DB_HOST}/v2/${MISSING_HOST}");
    const renamed = secretRow(page, "MAIL_FROM");
    await renamed.getByRole("button", { name: "Edit value of MAIL_FROM" }).click();
    await renamed.getByRole("textbox", { name: "New key of MAIL_FROM" }).fill("MAIL_SENDER");
    await renamed.getByRole("textbox", { name: "New key of MAIL_FROM" }).press("Enter");
    await secretRow(page, "LEGACY_TOKEN").getByRole("button", { name: "Delete LEGACY_TOKEN" }).click();
    await page.getByRole("button", { name: "Add row" }).click();
    const add = page.getByRole("dialog", { name: "Add a row" });
    await add.getByLabel("Key").fill("FEATURE_FLAGS");
    await add.getByLabel("Value").fill("search,checkout");
    await add.getByRole("button", { name: "Add to changes" }).click();
    await secretRow(page, "SENTRY_DSN").getByRole("checkbox", { name: "Select SENTRY_DSN" }).click();
    await secretRow(page, "STRIPE_KEY")
      .getByRole("checkbox", { name: "Select STRIPE_KEY" })
      .click({ modifiers: ["Shift"] });
    const bar = page.getByRole("region", { name: "Pending changes" });
    await expect(bar).toContainText("6 changes");

    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const width of [1440, 390] as const) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        const shot = (name: string) =>
          page.screenshot({ path: `${dir}${theme}-${name}-${width}.png`, animations: "disabled" });
        await page.mouse.move(0, 0);
        await shot("secrets-staged");

        await bar.getByRole("button", { name: "Review changes (6)" }).click();
        const review = page.getByRole("dialog", { name: "Review changes (6)" });
        await review.getByLabel("Describe this change").fill("Move the search settings to the new cluster");
        await review.getByRole("button", { name: "Reveal values" }).click();
        await expect(review.getByRole("listitem", { name: "Edited LOG_LEVEL" })).toContainText("info");
        await expect(review.getByText("Reading the value…")).toHaveCount(0);
        await shot("secrets-review");
        await review.getByRole("button", { name: "Hide values" }).click();
        await review.getByRole("button", { name: "Keep editing" }).click();
        await expect(review).toBeHidden();
      }
    }

    // The suggestions while a reference is typed.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: "light" });
    const row = secretRow(page, "DATABASE_URL");
    await row.getByRole("button", { name: "Edit value of DATABASE_URL" }).click();
    const input = row.getByRole("textbox", { name: "New value of DATABASE_URL" });
    await expect(input).not.toHaveValue("");
    await input.fill("postgres://app@");
    await input.pressSequentially("${D");
    await expect(page.getByRole("listbox", { name: "References" })).toBeVisible();
    await page.screenshot({ path: `${dir}light-secrets-references-1440.png`, animations: "disabled" });
  } finally {
    await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
  }
});
