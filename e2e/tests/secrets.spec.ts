import { endpoints } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import { csrf, expect, test, uniqueName } from "../support/fixtures.ts";
import { openSecrets, readSecret, secretRow, secretsTable, seedSecret } from "../support/secrets.ts";

/**
 * The secrets page against the real service. Projects, folders, tags and secrets are seeded
 * through the API and the project deleted afterwards (its secrets with it); what the browser
 * changes is read back through the API.
 */

/**
 * What the clipboard holds, read from a blank page of the console's origin: the console itself
 * forbids reading the clipboard (Permissions-Policy clipboard-read=()), as it never needs to.
 */
async function readClipboard(page: Page): Promise<string> {
  const reader = await page.context().newPage();
  const url = new URL("/clipboard-reader", page.url()).href;
  await reader.route(url, (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>r</title>" }),
  );
  await reader.goto(url);
  const text = await reader.evaluate(() => navigator.clipboard.readText());
  await reader.close();
  return text;
}

test.describe("with clipboard access", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("reveals a value on request, and copies another without showing it", async ({
    signedIn: page,
    service,
    seededProject,
  }) => {
    await seedSecret(service, seededProject, { key: "DATABASE_URL", value: "postgres://db.internal/app" });
    await seedSecret(service, seededProject, { key: "REDIS_URL", value: "redis://cache.internal:6379" });
    await openSecrets(page, seededProject);

    const database = secretRow(page, "DATABASE_URL");
    await expect(database.getByText("Value masked")).toBeAttached();
    await database.getByRole("button", { name: "Reveal value of DATABASE_URL" }).click();
    await expect(database).toContainText("postgres://db.internal/app");
    await database.getByRole("button", { name: "Hide value of DATABASE_URL" }).click();
    await expect(page.getByText("postgres://db.internal/app")).toHaveCount(0);

    await secretRow(page, "REDIS_URL").getByRole("button", { name: "Copy value of REDIS_URL" }).click();
    await expect(page.getByText("Value copied")).toBeVisible();
    await expect(page.getByText("redis://cache.internal:6379")).toHaveCount(0);
    expect(await readClipboard(page)).toBe("redis://cache.internal:6379");
  });
});

test("opens a secret's drawer from its row and from its Open action", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await seedSecret(service, seededProject, { key: "SMTP_PASSWORD", value: "smtp-pass-123", comment: "Outgoing mail" });
  await openSecrets(page, seededProject);
  const row = secretRow(page, "SMTP_PASSWORD");
  await row.getByText("Outgoing mail").click();
  const drawer = page.getByRole("dialog", { name: "SMTP_PASSWORD" });
  await expect(drawer).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await row.getByRole("button", { name: "Open SMTP_PASSWORD" }).click();
  await expect(drawer).toBeVisible();
  // Clicking the row's own controls does their job, not the drawer's.
  await page.keyboard.press("Escape");
  await row.getByRole("button", { name: "Reveal value of SMTP_PASSWORD" }).click();
  await expect(row).toContainText("smtp-pass-123");
  await expect(drawer).toBeHidden();
});

test("walks folders with breadcrumbs, creates one and deletes it once empty", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  const where = { workspaceId: seededProject.id, environment: "dev" };
  await service(endpoints["folders.create"], { body: { ...where, path: "/", name: "app" } });
  await service(endpoints["folders.create"], { body: { ...where, path: "/app", name: "api" } });
  await seedSecret(service, seededProject, { key: "API_PORT", value: "8080", secretPath: "/app/api" });
  await openSecrets(page, seededProject);

  const folders = page.getByRole("region", { name: "Folders" });
  await folders.getByRole("link", { name: "app", exact: true }).click();
  await expect(page).toHaveURL(/path=%2Fapp(&|$)/);
  await folders.getByRole("link", { name: "api", exact: true }).click();
  await expect(secretRow(page, "API_PORT")).toBeVisible();
  const crumbs = page.getByRole("navigation", { name: "Folder path" });
  await expect(crumbs.getByRole("link")).toHaveText(["dev", "app", "api"]);
  await expect(crumbs.getByRole("link", { name: "api" })).toHaveAttribute("aria-current", "location");

  // A folder with something in it says what goes with it and waits for its name.
  await crumbs.getByRole("link", { name: "app" }).click();
  await folders.getByRole("button", { name: "Delete folder api" }).click();
  const holding = page.getByRole("alertdialog", { name: "Delete folder api?" });
  await expect(holding).toContainText("Deleted with it: 1 secret inside /app/api.");
  await expect(holding.getByRole("button", { name: "Delete folder" })).toBeDisabled();
  await holding.getByRole("button", { name: "Cancel" }).click();

  await folders.getByRole("button", { name: "New folder" }).click();
  const dialog = page.getByRole("dialog", { name: "New folder" });
  await dialog.getByLabel("Name").fill("bad name");
  await dialog.getByRole("button", { name: "Create folder" }).click();
  await expect(dialog.getByText(/Invalid folder name/)).toBeVisible();
  await dialog.getByLabel("Name").fill("jobs");
  await dialog.getByRole("button", { name: "Create folder" }).click();
  await expect(dialog).toBeHidden();
  await expect(folders.getByRole("link", { name: "jobs", exact: true })).toBeVisible();

  await folders.getByRole("button", { name: "Delete folder jobs" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete folder jobs?" });
  await expect(confirm).toContainText("The empty folder “jobs” will be deleted.");
  await confirm.getByRole("button", { name: "Delete folder" }).click();
  await expect(confirm).toBeHidden();
  await expect(folders.getByRole("link", { name: "jobs", exact: true })).toHaveCount(0);
  const { folders: left } = await service(endpoints["folders.list"], { query: { ...where, path: "/app" } });
  expect(left.map((folder) => folder.name)).toEqual(["api"]);
});

test("switches environments, keeping the folder; a folder missing there says so", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await seedSecret(service, seededProject, { key: "DEV_ONLY", value: "1" });
  await seedSecret(service, seededProject, { key: "PROD_ONLY", value: "2", environment: "prod" });
  await service(endpoints["folders.create"], {
    body: { workspaceId: seededProject.id, environment: "dev", path: "/", name: "devtools" },
  });
  await openSecrets(page, seededProject);
  const environments = page.getByRole("navigation", { name: "Environments" });
  await expect(environments.getByRole("link", { name: "Development" })).toHaveAttribute("aria-current", "page");
  await expect(secretRow(page, "DEV_ONLY")).toBeVisible();

  await environments.getByRole("link", { name: "Production" }).click();
  await expect(page).toHaveURL(/env=prod/);
  await expect(secretRow(page, "PROD_ONLY")).toBeVisible();
  await expect(secretRow(page, "DEV_ONLY")).toHaveCount(0);

  await openSecrets(page, seededProject, "?env=dev&path=/devtools");
  await page.getByRole("navigation", { name: "Environments" }).getByRole("link", { name: "Staging" }).click();
  await expect(page.getByRole("heading", { name: "There is no folder /devtools in staging" })).toBeVisible();
  await page.getByRole("link", { name: "Go to the root folder" }).click();
  await expect(page.getByRole("heading", { name: "No secrets in this folder" })).toBeVisible();
});

test("keeps the search in the URL and narrows the table by tag", async ({ signedIn: page, service, seededProject }) => {
  const { workspaceTag: cache } = await service(endpoints["tags.create"], {
    params: { workspaceId: seededProject.id },
    body: { slug: "cache", color: "#27ae60" },
  });
  await seedSecret(service, seededProject, { key: "DATABASE_URL", value: "a" });
  await seedSecret(service, seededProject, { key: "DATABASE_REPLICA_URL", value: "b" });
  await seedSecret(service, seededProject, { key: "REDIS_URL", value: "c", tagIds: [cache.id] });

  await openSecrets(page, seededProject, "?q=replica");
  const search = page.getByRole("searchbox", { name: "Search secrets by key" });
  await expect(search).toHaveValue("replica");
  await expect(secretsTable(page).getByRole("row")).toHaveCount(2);
  await expect(secretRow(page, "DATABASE_REPLICA_URL")).toBeVisible();

  await search.fill("url");
  await expect(page).toHaveURL(/q=url/);
  await expect(page.getByRole("status").filter({ hasText: "of 3 secrets" })).toHaveText("3 of 3 secrets");
  await search.fill("nothing-like-this");
  await expect(page.getByRole("heading", { name: "No secrets match" })).toBeVisible();
  await search.fill("");
  await expect(page).not.toHaveURL(/q=/);

  await page.getByLabel("Tag").selectOption("cache");
  await expect(page).toHaveURL(/tag=cache/);
  await expect(secretsTable(page).getByRole("row")).toHaveCount(2);
  await expect(secretRow(page, "REDIS_URL")).toBeVisible();
  await page.goBack();
  await expect(secretsTable(page).getByRole("row")).toHaveCount(4);
});

test("a viewer who may only describe secrets sees that their values are hidden", async ({
  page,
  service,
  session,
  seededProject,
}) => {
  await seedSecret(service, seededProject, { key: "SHARED_SECRET", value: "not-for-viewers" });
  await service(endpoints["projectRoles.create"], {
    params: { projectId: seededProject.id },
    body: {
      name: "Describer",
      slug: "describer",
      permissions: [
        { subject: "secrets", action: ["describeSecret"] },
        { subject: "secret-folders", action: ["read"] },
      ],
    },
  });
  const { identity } = await service(endpoints["identities.create"], {
    body: { name: uniqueName("e2e-describer"), organizationId: session.organization.id, role: "member" },
  });
  try {
    await service(endpoints["identityMemberships.add"], {
      params: { projectId: seededProject.id, identityId: identity.id },
      body: { roles: [{ role: "describer", isTemporary: false }] },
    });
    await service(endpoints["tokenAuth.attach"], { params: { identityId: identity.id }, body: {} });
    const { accessToken } = await service(endpoints["tokenAuth.createToken"], {
      params: { identityId: identity.id },
      body: { name: "e2e" },
    });
    expect((await page.request.post("/bff/login", { headers: csrf, data: { accessToken } })).status()).toBe(200);

    await openSecrets(page, seededProject);
    const row = secretRow(page, "SHARED_SECRET");
    await expect(row).toContainText("Hidden by permission");
    const reveal = row.getByRole("button", { name: "Reveal value of SHARED_SECRET" });
    await expect(reveal).toHaveAttribute("aria-disabled", "true");
    await reveal.focus();
    await expect(page.getByRole("tooltip")).toContainText("The value is hidden.");
    await reveal.click({ force: true });
    await expect(row.getByRole("button", { name: "Copy value of SHARED_SECRET" })).toHaveAttribute(
      "aria-disabled",
      "true",
    );
    await expect(page.getByRole("button", { name: "Create secret" })).toHaveAttribute("aria-disabled", "true");
    await expect(row.getByRole("button", { name: "Delete SHARED_SECRET" })).toHaveAttribute("aria-disabled", "true");
    await expect(page.getByText("not-for-viewers")).toHaveCount(0);
  } finally {
    await service(endpoints["identities.delete"], { params: { identityId: identity.id } });
  }
});

test.describe("an environment of 10,000 secrets", () => {
  test.setTimeout(600_000);

  test("lists them virtualised, finds one by key and edits it", async ({ signedIn: page, service, seededProject }) => {
    const total = 10_000;
    const keys = Array.from({ length: total }, (_, i) => `BULK_SECRET_${String(i).padStart(5, "0")}`);
    // Seeded through the batch endpoint, 1,000 at a time: the page is what is tested here.
    for (let start = 0; start < total; start += 1_000) {
      await service(endpoints["secrets.batchCreate"], {
        body: {
          workspaceId: seededProject.id,
          environment: "dev",
          secretPath: "/",
          secrets: keys.slice(start, start + 1_000).map((key) => ({ secretKey: key, secretValue: `value-of-${key}` })),
        },
      });
    }

    await openSecrets(page, seededProject);
    await expect(page.getByRole("status").filter({ hasText: "secrets" })).toHaveText("10,000 secrets", {
      timeout: 60_000,
    });
    const table = secretsTable(page);
    await expect(table).toHaveAttribute("aria-rowcount", String(total + 1));
    // Only the rows in view (and a few either side) are in the page.
    expect(await table.locator("tbody tr[aria-rowindex]").count()).toBeLessThan(60);

    const search = page.getByRole("searchbox", { name: "Search secrets by key" });
    await search.fill("bulk_secret_0777");
    await expect(page.getByRole("status").filter({ hasText: "of 10,000" })).toHaveText("10 of 10,000 secrets");
    await search.fill("BULK_SECRET_07777");
    await expect(table.getByRole("row")).toHaveCount(2);
    await expect(page).toHaveURL(/q=BULK_SECRET_07777/);

    const row = secretRow(page, "BULK_SECRET_07777");
    await row.getByRole("button", { name: "Edit value of BULK_SECRET_07777" }).click();
    const input = row.getByRole("textbox", { name: "New value of BULK_SECRET_07777" });
    await expect(input).toHaveValue("value-of-BULK_SECRET_07777");
    await input.fill("edited-in-a-big-table");
    await input.press("Enter");
    await expect(input).toBeHidden();
    // The edit is staged, then saved with the page's other pending changes (here none).
    const pending = page.getByRole("region", { name: "Pending changes" });
    await pending.getByRole("button", { name: "Save 1 change" }).click();
    await expect(page.getByText("Changes saved")).toBeVisible();
    await expect(pending).toBeHidden();
    expect((await readSecret(service, seededProject, "BULK_SECRET_07777")).secretValue).toBe("edited-in-a-big-table");

    // The last secret is reached by scrolling the table.
    await search.fill("");
    await expect(page.getByRole("status").filter({ hasText: "secrets" })).toHaveText("10,000 secrets");
    await table.locator("xpath=..").evaluate((scroller) => scroller.scrollTo(0, scroller.scrollHeight));
    await expect(secretRow(page, "BULK_SECRET_09999")).toBeVisible();
  });
});
