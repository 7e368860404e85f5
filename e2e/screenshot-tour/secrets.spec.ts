import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

const services = [
  "PAYMENTS",
  "BILLING",
  "SEARCH",
  "AUTH",
  "MAILER",
  "LEDGER",
  "CATALOG",
  "GATEWAY",
  "REPORTS",
  "MEDIA",
];
const kinds = ["DATABASE_URL", "API_KEY", "CLIENT_SECRET", "WEBHOOK_SECRET", "REDIS_URL", "SENTRY_DSN", "QUEUE_URL"];

/** The secrets page of a project with 10,000 secrets (tags, comments, folders), in both themes. */
test("secrets tour in both themes", async ({ signedIn: page, service }) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { project } = await service(endpoints["projects.create"], {
    body: { projectName: uniqueName("Payments"), shouldCreateDefaultEnvs: true },
  });
  try {
    const params = { workspaceId: project.id };
    const tags = await Promise.all(
      (
        [
          ["backend", "#2f80ed"],
          ["payments", "#27ae60"],
          ["rotate-monthly", "#eb5757"],
        ] as const
      ).map(
        async ([slug, color]) =>
          (await service(endpoints["tags.create"], { params, body: { slug, color } })).workspaceTag,
      ),
    );
    const where = { workspaceId: project.id, environment: "dev" };
    for (const name of ["app", "jobs", "legacy"]) {
      await service(endpoints["folders.create"], { body: { ...where, path: "/", name } });
    }
    await service(endpoints["folders.create"], { body: { ...where, path: "/app", name: "api" } });

    const total = 10_000;
    const seeds = Array.from({ length: total }, (_, i) => {
      const kind = kinds[i % kinds.length] as string;
      const name = services[Math.floor(i / kinds.length) % services.length] as string;
      const shard = Math.floor(i / (kinds.length * services.length));
      const key = shard === 0 ? `${name}_${kind}` : `${name}_${kind}_${String(shard).padStart(3, "0")}`;
      const tagIds =
        shard % 3 === 2 ? [tags[0]?.id ?? ""] : shard % 5 === 1 ? [tags[1]?.id ?? "", tags[2]?.id ?? ""] : [];
      const comment = shard % 4 === 1 ? `Used by the ${name.toLowerCase()} service` : "";
      return { key, value: `${kind.toLowerCase()}-${i}-${"x".repeat(12 + (i % 20))}`, tagIds, comment };
    });
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < seeds.length) {
          const seed = seeds[next++];
          if (!seed) break;
          await service(endpoints["secrets.create"], {
            params: { secretName: seed.key },
            body: {
              ...where,
              secretPath: "/",
              secretValue: seed.value,
              secretComment: seed.comment,
              ...(seed.tagIds.length ? { tagIds: seed.tagIds } : {}),
            },
          });
        }
      }),
    );
    await service(endpoints["secrets.create"], {
      params: { secretName: "API_PORT" },
      body: { ...where, secretPath: "/app/api", secretValue: "8080", secretComment: "Listens here" },
    });

    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      const shot = (name: string) => page.screenshot({ path: `${dir}${theme}-${name}.png`, animations: "disabled" });

      await page.goto(`/projects/${project.id}/secrets`);
      await expect(page.getByRole("status").filter({ hasText: "secrets" })).toHaveText("10,000 secrets", {
        timeout: 60_000,
      });
      await shot("s1-secrets-10000");

      const search = page.getByRole("searchbox", { name: "Search secrets by key" });
      await search.fill("payments_api");
      const first = page.getByRole("button", { name: "Reveal value of PAYMENTS_API_KEY", exact: true });
      await first.click();
      await expect(page.getByRole("table", { name: "Secrets" })).toContainText("api_key-1-");
      await shot("s2-search-revealed");

      await page.getByRole("button", { name: "Edit value of PAYMENTS_API_KEY_001", exact: true }).click();
      await expect(page.getByRole("textbox", { name: "New value of PAYMENTS_API_KEY_001" })).not.toHaveValue("");
      await shot("s3-inline-edit");
      await page.keyboard.press("Escape");

      await page.getByLabel("Tag").selectOption("payments");
      await search.fill("");
      await expect(page.getByRole("status").filter({ hasText: "of 10,000" })).toBeVisible();
      await shot("s4-tag-filter");
      await page.getByLabel("Tag").selectOption("");

      await page.getByRole("button", { name: "Create secret" }).click();
      const dialog = page.getByRole("dialog", { name: "Create secret" });
      await dialog.getByLabel("Key").fill("STRIPE_WEBHOOK_SECRET");
      await dialog.getByLabel("Value").fill("whsec_…");
      await dialog.getByRole("checkbox", { name: "payments" }).check();
      await shot("s5-create-secret");
      await page.keyboard.press("Escape");

      await page.getByRole("button", { name: "Delete AUTH_API_KEY", exact: true }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await shot("s6-delete-confirm");
      await page.keyboard.press("Escape");

      await page.goto(`/projects/${project.id}/secrets?path=/app/api`);
      await expect(page.getByRole("button", { name: "Open API_PORT" })).toBeVisible();
      await shot("s7-folder");

      await page.goto(`/projects/${project.id}/secrets?env=staging`);
      await expect(page.getByRole("heading", { name: "No secrets in this folder" })).toBeVisible();
      await shot("s8-empty");
    }
  } finally {
    await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
  }
});
