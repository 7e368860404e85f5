import { endpoints, type Project } from "@keyhold/contract";
import { type ServiceCall, ServiceError } from "../support/api.ts";
import { expect, test as base, uniqueName } from "../support/fixtures.ts";

/**
 * A folder rolled back in the console after a bad change (made through the API, or a bad import in
 * the console): several values changed and a key added; the preview names them (values masked
 * until revealed), the rollback is confirmed once, and the values read back through the API are
 * the old ones.
 */
const test = base.extend<{ project: Project }>({
  project: async ({ service }, use) => {
    const { project } = await service(endpoints["projects.create"], {
      body: { projectName: uniqueName("e2e-history"), shouldCreateDefaultEnvs: true },
    });
    await use(project);
    try {
      await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
    } catch (error) {
      if (!(error instanceof ServiceError && error.status === 404)) throw error;
    }
  },
});

const good = { DATABASE_URL: "postgres://db/good", API_KEY: "key-good", REDIS_URL: "redis://good" };

async function devValues(service: ServiceCall, project: Project) {
  const { secrets } = await service(endpoints["secrets.list"], {
    query: { workspaceId: project.id, environment: "dev", secretPath: "/" },
  });
  return Object.fromEntries(secrets.map((s) => [s.secretKey, s.secretValue]));
}

test("roll a folder back after a bad change and see the values return", async ({
  signedIn: page,
  service,
  project,
}) => {
  const where = { workspaceId: project.id, environment: "dev", secretPath: "/" };
  for (const [secretName, secretValue] of Object.entries(good)) {
    await service(endpoints["secrets.create"], { params: { secretName }, body: { ...where, secretValue } });
  }
  // The bad change: two values overwritten and a stray key added.
  await service(endpoints["secrets.update"], {
    params: { secretName: "DATABASE_URL" },
    body: { ...where, secretValue: "postgres://db/broken" },
  });
  await service(endpoints["secrets.update"], {
    params: { secretName: "API_KEY" },
    body: { ...where, secretValue: "key-broken" },
  });
  await service(endpoints["secrets.create"], { params: { secretName: "STRAY" }, body: { ...where, secretValue: "x" } });

  await page.goto(`/projects/${project.id}/secrets?env=dev`);
  await page.getByRole("link", { name: "History", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Folder history" })).toBeVisible();
  const commits = page.getByRole("list").filter({ has: page.getByText("#3") });
  await expect(commits.getByRole("listitem")).toHaveCount(6);

  // The third change (REDIS_URL created) is the last good state.
  const lastGood = commits.getByRole("listitem").filter({ hasText: "#3" });
  await lastGood.getByRole("button", { name: "Preview rollback" }).click();
  const preview = page.getByRole("dialog", { name: "Roll back to #3?" });
  await expect(preview.getByRole("region", { name: "Will change" })).toContainText("API_KEY");
  await expect(preview.getByRole("region", { name: "Will change" })).toContainText("DATABASE_URL");
  await expect(preview.getByRole("region", { name: "Will be removed" })).toContainText("STRAY");
  // Values are masked until revealed, and a reveal reads that key's values only.
  await expect(preview).not.toContainText("key-good");
  await preview.getByRole("button", { name: "Reveal API_KEY" }).click();
  await expect(preview).toContainText("key-broken");
  await expect(preview).toContainText("key-good");
  await expect(preview).not.toContainText("postgres://db/good");

  await preview.getByRole("button", { name: "Roll back…" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Roll back dev:/?" });
  await confirm.getByRole("button", { name: "Roll back" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Rolled back to change #3" })).toBeVisible();
  await expect.poll(() => devValues(service, project)).toEqual(good);

  // The rollback is itself a change at the top of the history.
  await expect(commits.getByRole("listitem").first()).toContainText("Rollback to #3");
  await page.getByRole("link", { name: "Back to secrets" }).click();
  await expect(page.getByText("STRAY")).toHaveCount(0);
});

test("roll a folder back after a bad import and see the values return", async ({
  signedIn: page,
  service,
  project,
}) => {
  const where = { workspaceId: project.id, environment: "dev", secretPath: "/" };
  for (const [secretName, secretValue] of Object.entries(good)) {
    await service(endpoints["secrets.create"], { params: { secretName }, body: { ...where, secretValue } });
  }

  // The bad import: two values overwritten and a stray key added, in one batch.
  await page.goto(`/projects/${project.id}/secrets?env=dev`);
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const importDialog = page.getByRole("dialog", { name: "Import secrets" });
  await importDialog
    .getByLabel("Or paste the contents")
    .fill("DATABASE_URL=postgres://db/broken\nAPI_KEY=key-broken\nSTRAY=x\n");
  await importDialog.getByRole("button", { name: "Preview" }).click();
  await page
    .getByRole("dialog", { name: "Review the import" })
    .getByRole("button", { name: "Import 3 secrets" })
    .click();
  await expect(page.getByText("Secrets imported")).toBeVisible();
  await expect
    .poll(() => devValues(service, project))
    .toEqual({ ...good, DATABASE_URL: "postgres://db/broken", API_KEY: "key-broken", STRAY: "x" });

  await page.getByRole("link", { name: "History", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Folder history" })).toBeVisible();
  const commits = page.getByRole("list").filter({ has: page.getByText("#3") });
  // Three creates, then the import as one change.
  await expect(commits.getByRole("listitem")).toHaveCount(4);

  await commits
    .getByRole("listitem")
    .filter({ hasText: "#3" })
    .getByRole("button", { name: "Preview rollback" })
    .click();
  const preview = page.getByRole("dialog", { name: "Roll back to #3?" });
  await expect(preview.getByRole("region", { name: "Will change" })).toContainText("DATABASE_URL");
  await expect(preview.getByRole("region", { name: "Will be removed" })).toContainText("STRAY");
  await preview.getByRole("button", { name: "Roll back…" }).click();
  await page.getByRole("alertdialog", { name: "Roll back dev:/?" }).getByRole("button", { name: "Roll back" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Rolled back to change #3" })).toBeVisible();
  await expect.poll(() => devValues(service, project)).toEqual(good);
});
