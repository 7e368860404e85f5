import { readFile } from "node:fs/promises";
import { endpoints, type Project } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import type { ServiceCall } from "../support/api.ts";
import { expect, server, test } from "../support/fixtures.ts";
import { openSecrets, readSecret, secretRow, secretsTable, seedSecret } from "../support/secrets.ts";

/**
 * The daily secrets workspace (overview, staged changes, import and export, multi-select, folder
 * history) against whichever server the suite runs on, real Infisical servers included. Each test
 * seeds its own project through that server's API and reads back through it what the browser
 * changed. Where a server lacks something (value digests, commit history for identities), the
 * test checks what the console says instead.
 */
const live = { tag: "@live" } as const;

type Slug = "dev" | "staging" | "prod";

async function seedAcross(service: ServiceCall, project: Project, key: string, values: Partial<Record<Slug, string>>) {
  for (const [environment, value] of Object.entries(values)) {
    await seedSecret(service, project, { key, value, environment });
  }
}

async function folderValues(service: ServiceCall, project: Project, environment = "dev") {
  const { secrets } = await service(endpoints["secrets.list"], {
    query: { workspaceId: project.id, environment, secretPath: "/", viewSecretValue: "true" },
  });
  return Object.fromEntries(secrets.map((secret) => [secret.secretKey, secret.secretValue]));
}

const overviewTable = (page: Page) => page.getByRole("table", { name: "Secrets across environments" });
const keyRow = (page: Page, key: string) =>
  overviewTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader").getByText(key, { exact: true }) });
const cellOf = (page: Page, key: string, column: 1 | 2 | 3) =>
  keyRow(page, key)
    .getByRole("cell")
    .nth(column - 1);
const pendingBar = (page: Page) => page.getByRole("region", { name: "Pending changes" });

async function openOverview(page: Page, project: Project) {
  await page.goto(`/projects/${project.id}/overview`);
  await expect(page.getByRole("heading", { level: 1, name: "Secrets overview" })).toBeVisible();
}

test.describe("the secrets workspace", () => {
  test(
    "the overview marks the key missing in prod, compares values only where the server offers digests, and adds the key there",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      await seedAcross(service, project, "API_URL", {
        dev: "https://api",
        staging: "https://api",
        prod: "https://api",
      });
      await seedAcross(service, project, "STRIPE_KEY", { dev: "sk_test_1", staging: "sk_test_1" });
      await openOverview(page, project);

      // Infisical sends no value digests: the values are "Not compared", never called equal.
      await expect(keyRow(page, "API_URL")).toContainText(server === "keyhold" ? "Same value" : "Not compared");
      await page.getByLabel("Show").selectOption("missing");
      await expect(overviewTable(page).getByRole("rowheader")).toHaveText([/STRIPE_KEY/]);
      await expect(keyRow(page, "STRIPE_KEY")).toContainText("Missing in prod");

      const prod = cellOf(page, "STRIPE_KEY", 3);
      await prod.getByRole("button", { name: "Add STRIPE_KEY in Production" }).click();
      await prod.getByRole("textbox", { name: "Value of STRIPE_KEY in Production" }).fill("sk_live_9");
      await page.keyboard.press("Enter");
      await expect(prod).toContainText("New");
      await pendingBar(page).getByRole("button", { name: "Save 1 change" }).click();
      await expect(page.getByText("Changes saved")).toBeVisible();
      await expect(overviewTable(page).getByRole("rowheader")).toHaveCount(0);
      expect((await readSecret(service, project, "STRIPE_KEY", "prod")).secretValue).toBe("sk_live_9");
    },
  );

  test(
    "the overview copies a value from dev to an environment that has the key and one that lacks it",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      await seedAcross(service, project, "DB_URL", { dev: "postgres://dev-db", staging: "postgres://old" });
      await openOverview(page, project);
      await cellOf(page, "DB_URL", 1)
        .getByRole("button", { name: "Copy DB_URL from Development to other environments" })
        .click();
      const dialog = page.getByRole("dialog", { name: "Copy DB_URL to other environments" });
      await expect(dialog.getByRole("checkbox", { name: /Production/ })).toBeChecked();
      await dialog.getByRole("button", { name: "Copy value" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText("postgres://dev-db")).toHaveCount(0);
      for (const environment of ["staging", "prod"]) {
        expect((await readSecret(service, project, "DB_URL", environment)).secretValue).toBe("postgres://dev-db");
      }
      await expect(keyRow(page, "DB_URL")).not.toContainText("Missing");
    },
  );

  test(
    "stages edits, a rename and a delete in the table, reviews them and saves them",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      const keys = ["EDIT_A", "EDIT_B", "EDIT_C"];
      for (const key of keys) await seedSecret(service, project, { key, value: `old-${key}` });
      await seedSecret(service, project, { key: "OLD_NAME", value: "kept-through-rename", comment: "renamed" });
      await seedSecret(service, project, { key: "GOING_AWAY", value: "bye" });
      await openSecrets(page, project, "?env=dev");

      for (const key of keys) {
        const row = secretRow(page, key);
        await row.getByRole("button", { name: `Edit value of ${key}` }).click();
        const input = row.getByRole("textbox", { name: `New value of ${key}` });
        await expect(input).toHaveValue(`old-${key}`);
        await input.fill(`new-${key}`);
        await input.press("Enter");
        await expect(row.getByText("Edited")).toBeVisible();
      }
      const renamed = secretRow(page, "OLD_NAME");
      await renamed.getByRole("button", { name: "Edit value of OLD_NAME" }).click();
      const keyInput = renamed.getByRole("textbox", { name: "New key of OLD_NAME" });
      await keyInput.fill("NEW_NAME");
      await keyInput.press("Enter");
      await expect(renamed).toContainText("renamed from OLD_NAME");
      await secretRow(page, "GOING_AWAY").getByRole("button", { name: "Delete GOING_AWAY" }).click();
      await expect(pendingBar(page)).toContainText("5 changes not saved yet");

      const sent: string[] = [];
      page.on("request", (request) => {
        const { pathname } = new URL(request.url());
        if (/\/secrets\/batch|\/pit\/batch/.test(pathname)) sent.push(`${request.method()} ${pathname}`);
      });
      await pendingBar(page).getByRole("button", { name: "Review changes (5)" }).click();
      const review = page.getByRole("dialog", { name: "Review changes (5)" });
      await expect(review.getByRole("listitem", { name: "Edited NEW_NAME" })).toContainText("OLD_NAME → NEW_NAME");
      await review.getByRole("button", { name: "Save 5 changes" }).click();
      await page
        .getByRole("alertdialog", { name: "Save 5 changes?" })
        .getByRole("button", { name: "Save 5 changes" })
        .click();
      await expect(page.getByText("Changes saved")).toBeVisible();
      await expect(pendingBar(page)).toBeHidden();

      expect(await folderValues(service, project)).toEqual({
        EDIT_A: "new-EDIT_A",
        EDIT_B: "new-EDIT_B",
        EDIT_C: "new-EDIT_C",
        NEW_NAME: "kept-through-rename",
      });
      expect((await readSecret(service, project, "NEW_NAME")).secretComment).toBe("renamed");
      await expect(secretRow(page, "NEW_NAME")).toBeVisible();
      // One commit; a server that refuses it (Infisical: no such route, or user sessions only)
      // gets the deletes and then the edits with the rename, one batch each.
      const commit = "POST /api/v1/pit/batch/commit";
      expect(sent).toEqual(
        server === "keyhold"
          ? [commit]
          : [commit, "DELETE /api/v3/secrets/batch/raw", "PATCH /api/v3/secrets/batch/raw"],
      );
    },
  );

  test(
    "imports a small .env with new and changed keys after a preview",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      await seedSecret(service, project, { key: "KEEP", value: "same" });
      await seedSecret(service, project, { key: "CHANGE", value: "old" });
      await openSecrets(page, project, "?env=dev");
      await page.getByRole("button", { name: "Import", exact: true }).click();
      const importDialog = page.getByRole("dialog", { name: "Import secrets" });
      const file = "KEEP=same\nCHANGE=new\nADDED_ONE=one\nADDED_TWO='two words'\nBAD KEY=x\n";
      await importDialog
        .getByLabel("File to import")
        .setInputFiles({ name: "app.env", mimeType: "text/plain", buffer: Buffer.from(file) });
      await importDialog.getByRole("button", { name: "Preview" }).click();
      const review = page.getByRole("dialog", { name: "Review the import" });
      const tab = (name: string) => review.getByRole("tab", { name: new RegExp(`^${name}`) });
      await expect(tab("New")).toContainText("2");
      await expect(tab("Changed")).toContainText("1");
      await expect(tab("Unchanged")).toContainText("1");
      await expect(tab("Invalid")).toContainText("1");
      await review.getByRole("button", { name: "Import 3 secrets" }).click();
      await expect(page.getByText("Secrets imported")).toBeVisible();
      await expect(review).toBeHidden();

      expect(await folderValues(service, project)).toEqual({
        KEEP: "same",
        CHANGE: "new",
        ADDED_ONE: "one",
        ADDED_TWO: "two words",
      });
      await expect(secretRow(page, "ADDED_TWO")).toBeVisible();
    },
  );

  test("exports the folder as .env", live, async ({ signedIn: page, service, seededProject: project }) => {
    await seedSecret(service, project, { key: "PLAIN", value: "value-1", comment: "the plain one" });
    await seedSecret(service, project, { key: "MULTI", value: "line one\nline two" });
    await openSecrets(page, project, "?env=dev");
    await page.getByRole("button", { name: "Export", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Export secrets" });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      dialog.getByRole("button", { name: "Download .env" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("dev.env");
    const exported = await readFile(await download.path(), "utf8");
    expect(exported).toMatch(/^MULTI=(['"])line one\nline two\1$/m);
    expect(exported).toContain("# the plain one\nPLAIN=value-1");
  });

  test(
    "selects a range with shift-click and deletes it after typing the count",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      const keys = ["PICK_1", "PICK_2", "PICK_3", "PICK_4"];
      for (const key of keys) await seedSecret(service, project, { key, value: key });
      await openSecrets(page, project, "?env=dev");
      // The rows come in the server's order (an October 2024 server does not sort them).
      const checkboxes = secretsTable(page).getByRole("checkbox", { name: /^Select PICK_/ });
      await expect(checkboxes).toHaveCount(4);
      const shown = await checkboxes.evaluateAll((boxes) =>
        boxes.map((box) => (box.getAttribute("aria-label") ?? "").replace("Select ", "")),
      );
      await checkboxes.nth(1).click();
      await checkboxes.nth(3).click({ modifiers: ["Shift"] });
      const selection = page.getByRole("toolbar", { name: "Selected secrets" });
      await expect(selection).toContainText("3 secrets selected");
      await selection.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Delete 3 secrets?" });
      await confirm.getByLabel("Type 3 secrets to confirm").fill("3 secrets");
      await confirm.getByRole("button", { name: "Delete 3 secrets" }).click();
      await expect(confirm).toBeHidden();
      await expect(secretRow(page, shown[2] ?? "")).toHaveCount(0);
      expect(Object.keys(await folderValues(service, project))).toEqual([shown[0]]);
    },
  );

  test(
    "the folder's history: commits where the server shows them to identities, its snapshots and the reason where not",
    live,
    async ({ signedIn: page, service, seededProject: project }) => {
      await seedSecret(service, project, { key: "HIST_A", value: "good" });
      await service(endpoints["secrets.update"], {
        params: { secretName: "HIST_A" },
        body: { workspaceId: project.id, environment: "dev", secretPath: "/", secretValue: "bad" },
      });
      await openSecrets(page, project, "?env=dev");
      await page.getByRole("link", { name: "History", exact: true }).click();
      await expect(page.getByRole("heading", { name: "Folder history" })).toBeVisible();
      await expect(page.getByRole("alert")).toHaveCount(0);

      if (server === "keyhold") {
        await expect(page.getByRole("heading", { name: "2 changes, newest first" })).toBeVisible();
        return;
      }
      const note = page.getByRole("note");
      await expect(note).toContainText(
        server === "2024"
          ? "This server keeps snapshots of the folder but no commit history"
          : "This server shows commit history to signed-in users only, not to machine identities",
      );
      const snapshots = page.getByRole("region", { name: "Snapshots" }).getByRole("listitem");
      await expect(snapshots).toHaveCount(2);

      // The older snapshot (HIST_A = good) is the second; the first is the folder as it is.
      await snapshots.nth(1).getByRole("button", { name: "Roll back to this snapshot" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Roll back dev:/?" });
      await confirm.getByRole("button", { name: "Roll back" }).click();
      if (server === "2024") {
        await expect(page.getByRole("status").filter({ hasText: "Folder rolled back" })).toBeVisible();
        expect(await folderValues(service, project)).toEqual({ HIST_A: "good" });
      } else {
        // The mid-2026 server's snapshot rollback answers 500: the dialog says so, nothing changes.
        await expect(confirm).toContainText(
          "This server could not roll the folder back to that snapshot, and nothing was changed.",
        );
        expect(await folderValues(service, project)).toEqual({ HIST_A: "bad" });
      }
    },
  );
});
