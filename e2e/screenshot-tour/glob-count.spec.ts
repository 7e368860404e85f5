import { mkdirSync } from "node:fs";
import { expect, test } from "../support/fixtures.ts";
import { seedRole } from "../support/roles.ts";
import { seedFolders } from "../support/secrets.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/** A role's condition builder counting the folders its path glob matches, with the folders listed. */
for (const theme of ["light", "dark"] as const) {
  for (const width of [390, 1440]) {
    test(`folder count of a glob at ${width} px in the ${theme} theme`, async ({
      signedIn: page,
      service,
      seededProject,
    }) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width, height: 900 });
      const projectId = seededProject.id;
      const roleSlug = await seedRole(service, projectId, {
        slugPrefix: "svc-db",
        name: "Service databases",
        permissions: [
          {
            subject: "secrets",
            action: ["readValue", "describeSecret"],
            conditions: { environment: { $in: ["prod", "staging"] }, secretPath: { $glob: "/x" } },
          },
        ],
      });
      await seedFolders(
        service,
        seededProject,
        ["prod", "staging"].flatMap((environment) =>
          (
            [
              ["/", "svc"],
              ["/svc", "payments"],
              ["/svc", "ledger"],
              ["/svc/payments", "db"],
              ["/svc/ledger", "db"],
              ["/svc/ledger", "cache"],
            ] as const
          ).map(([path, name]) => [environment, path, name] as const),
        ),
      );
      await page.goto(`/projects/${projectId}/roles/${roleSlug}`);
      const secrets = page.getByRole("group", { name: "Secrets", exact: true });
      await secrets.getByLabel("Secrets rule 1, condition 2: value").fill("/svc/*/db");
      await expect(secrets.getByText("Matches 2 folders in staging, 2 in prod.")).toBeVisible();
      await secrets.getByText("Show the folders").click();
      await secrets.scrollIntoViewIfNeeded();
      await secrets.screenshot({ path: `${dir}${width}-${theme}-glob-count.png`, animations: "disabled" });
    });
  }
}
