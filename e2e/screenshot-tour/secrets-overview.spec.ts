import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

const services = ["PAYMENTS", "BILLING", "SEARCH", "AUTH", "MAILER", "LEDGER", "CATALOG", "GATEWAY"];
const kinds = ["DATABASE_URL", "API_KEY", "CLIENT_SECRET", "REDIS_URL", "SENTRY_DSN", "LOG_LEVEL"];
const environments = ["dev", "staging", "prod"] as const;

/** The secrets overview of a project with 48 keys in three environments (some missing, some differing), in both themes, wide and narrow. */
test("secrets overview tour in both themes", async ({ signedIn: page, service }) => {
  test.setTimeout(300_000);
  page.setDefaultTimeout(15_000);
  const { project } = await service(endpoints["projects.create"], {
    body: { projectName: uniqueName("Payments"), shouldCreateDefaultEnvs: true },
  });
  try {
    const seeds = services.flatMap((name, s) =>
      kinds.flatMap((kind, k) =>
        environments.flatMap((environment, e) => {
          const n = s * kinds.length + k;
          // Some keys are missing in prod or staging; some values differ by environment.
          if (environment === "prod" && n % 5 === 3) return [];
          if (environment === "staging" && n % 11 === 7) return [];
          const value = n % 3 === 0 ? `${kind.toLowerCase()}-${environment}-${n}` : `${kind.toLowerCase()}-${n}`;
          return [{ key: `${name}_${kind}`, environment, value, e }];
        }),
      ),
    );
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < seeds.length) {
          const seed = seeds[next++];
          if (!seed) break;
          await service(endpoints["secrets.create"], {
            params: { secretName: seed.key },
            body: { workspaceId: project.id, environment: seed.environment, secretPath: "/", secretValue: seed.value },
          });
        }
      }),
    );
    for (const environment of environments) {
      await service(endpoints["folders.create"], {
        body: { workspaceId: project.id, environment, path: "/", name: "app" },
      });
    }
    await service(endpoints["folders.create"], {
      body: { workspaceId: project.id, environment: "dev", path: "/", name: "jobs" },
    });

    for (const [width, height, size] of [
      [1440, 900, "1440"],
      [390, 844, "390"],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const theme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: theme });
        const shot = (name: string) =>
          page.screenshot({ path: `${dir}${theme}-${size}-${name}.png`, animations: "disabled" });

        await page.goto(`/projects/${project.id}/overview`);
        await expect(page.getByRole("status").filter({ hasText: "keys" })).toContainText("48 keys");
        await shot("o1-overview");

        await page.getByRole("button", { name: "Reveal values of AUTH_DATABASE_URL" }).click();
        await expect(page.getByRole("table", { name: "Secrets across environments" })).toContainText(
          "database_url-dev-18",
        );
        await shot("o2-revealed");
        await page.getByRole("button", { name: "Hide values of AUTH_DATABASE_URL" }).click();

        await page.getByLabel("Show").selectOption("missing");
        await expect(page.getByRole("status").filter({ hasText: "keys" })).toContainText("of 48 keys");
        await shot("o3-missing");

        await page.getByRole("button", { name: "Add BILLING_CLIENT_SECRET in Production" }).click();
        await page.getByRole("textbox", { name: "Value of BILLING_CLIENT_SECRET in Production" }).fill("live-key");
        await shot("o4-add-in-cell");
        await page.keyboard.press("Enter");
        const pending = page.getByRole("region", { name: "Pending changes" });
        await expect(pending).toContainText("1 change not saved yet");
        await shot("o5-staged");
        await pending.getByRole("button", { name: "Discard all" }).click();
        await page.getByRole("alertdialog").getByRole("button", { name: "Discard all" }).click();
        await expect(pending).toBeHidden();
        await page.getByLabel("Show").selectOption("all");

        await page.getByRole("button", { name: "Add key", exact: true }).click();
        const add = page.getByRole("dialog", { name: "Add key" });
        await add.getByLabel("Key").fill("FEATURE_FLAGS_URL");
        await add.getByLabel("Value").fill("https://flags.internal");
        await shot("o6-add-key");
        await page.keyboard.press("Escape");
        await page.getByRole("button", { name: "Discard changes" }).click();

        await page.getByRole("button", { name: "Copy AUTH_API_KEY from Development to other environments" }).click();
        await expect(page.getByRole("dialog", { name: /Copy AUTH_API_KEY/ })).toBeVisible();
        await shot("o7-copy-value");
        await page.keyboard.press("Escape");

        await page.goto(`/projects/${project.id}/overview?path=/app`);
        await expect(page.getByRole("heading", { name: "No secrets in this folder in any environment" })).toBeVisible();
        await shot("o8-empty");
      }
    }
  } finally {
    await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
  }
});
