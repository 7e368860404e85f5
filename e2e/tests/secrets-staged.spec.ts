import { endpoints, type Project } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import type { ServiceCall } from "../support/api.ts";
import { expect, test } from "../support/fixtures.ts";
import { openSecrets, readSecret, secretRow, seedSecret } from "../support/secrets.ts";

/**
 * Staged changes in the secrets table: edits, renames and deletes wait in the page until one
 * save, which sends each folder's changes in one request (one commit of its history); undo,
 * multi-select (each action one batch request) and the leave guard. Seeded and read back
 * through the API.
 */

/** The console's requests that write many secrets (batches, commits), as "METHOD path", in order. */
function batchRequests(page: Page): string[] {
  const sent: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.includes("/secrets/batch") || pathname.includes("/pit/batch")) {
      sent.push(`${request.method()} ${pathname}`);
    }
  });
  return sent;
}

async function listKeys(service: ServiceCall, project: Project) {
  const { secrets } = await service(endpoints["secrets.list"], {
    query: { workspaceId: project.id, environment: "dev", secretPath: "/", viewSecretValue: "false" },
  });
  return secrets.map((secret) => secret.secretKey).sort();
}

async function stageValue(page: Page, key: string, value: string) {
  const row = secretRow(page, key);
  await row.getByRole("button", { name: `Edit value of ${key}` }).click();
  const input = row.getByRole("textbox", { name: `New value of ${key}` });
  await expect(input).not.toHaveValue("");
  await input.fill(value);
  await input.press("Enter");
  await expect(input).toBeHidden();
  await expect(row.getByText("Edited")).toBeVisible();
}

const pendingBar = (page: Page) => page.getByRole("region", { name: "Pending changes" });

test("stages ten edits, a rename and a delete, reviews them and saves them in one request", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  const keys = Array.from({ length: 10 }, (_, i) => `STAGED_${String(i).padStart(2, "0")}`);
  await Promise.all([
    ...keys.map((key) => seedSecret(service, project, { key, value: `old-${key}` })),
    seedSecret(service, project, { key: "OLD_NAME", value: "kept-through-rename" }),
    seedSecret(service, project, { key: "GOING_AWAY", value: "bye" }),
  ]);
  const sent = batchRequests(page);
  await openSecrets(page, project);

  for (const key of keys) await stageValue(page, key, `new-${key}`);
  const renamed = secretRow(page, "OLD_NAME");
  await renamed.getByRole("button", { name: "Edit value of OLD_NAME" }).click();
  const keyInput = renamed.getByRole("textbox", { name: "New key of OLD_NAME" });
  await keyInput.fill("NEW_NAME");
  await keyInput.press("Enter");
  await expect(renamed).toContainText("NEW_NAME");
  await expect(renamed).toContainText("renamed from OLD_NAME");
  await secretRow(page, "GOING_AWAY").getByRole("button", { name: "Delete GOING_AWAY" }).click();
  await expect(secretRow(page, "GOING_AWAY")).toContainText("Deleted on save");
  await expect(pendingBar(page)).toContainText("12 changes not saved yet");
  // Nothing has been sent yet.
  expect(sent).toEqual([]);
  expect((await readSecret(service, project, "STAGED_00")).secretValue).toBe("old-STAGED_00");

  await pendingBar(page).getByRole("button", { name: "Review changes (12)" }).click();
  const review = page.getByRole("dialog", { name: "Review changes (12)" });
  const items = review.getByRole("list", { name: "Pending changes" }).getByRole("listitem");
  await expect(items).toHaveCount(12);
  await expect(review.getByRole("listitem", { name: "Edited NEW_NAME" })).toContainText("OLD_NAME → NEW_NAME");
  // Values stay masked until revealed; the current one is read only then.
  const first = review.getByRole("listitem", { name: "Edited STAGED_00" });
  await expect(first).not.toContainText("new-STAGED_00");
  await review.getByRole("button", { name: "Reveal values" }).click();
  await expect(first).toContainText("old-STAGED_00");
  await expect(first).toContainText("new-STAGED_00");

  await review.getByLabel("Describe this change").fill("Rotate the staged keys");
  await review.getByRole("button", { name: "Save 12 changes" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Save 12 changes?" });
  await expect(confirm).toContainText("dev:GOING_AWAY");
  await confirm.getByRole("button", { name: "Save 12 changes" }).click();
  await expect(page.getByText("Changes saved")).toBeVisible();
  await expect(pendingBar(page)).toBeHidden();

  // All twelve in one request, one entry of the folder's history with the message given.
  expect(sent).toEqual(["POST /api/v1/pit/batch/commit"]);
  const { commits } = await service(endpoints["pitCommits.list"], {
    query: { projectId: project.id, environment: "dev", path: "/" },
  });
  expect(commits[0]?.message).toBe("Rotate the staged keys");
  expect(await listKeys(service, project)).toEqual(["NEW_NAME", ...keys]);
  const values = await Promise.all(keys.map((key) => readSecret(service, project, key)));
  expect(values.map((secret) => secret.secretValue)).toEqual(keys.map((key) => `new-${key}`));
  expect((await readSecret(service, project, "NEW_NAME")).secretValue).toBe("kept-through-rename");
  await expect(secretRow(page, "NEW_NAME")).toBeVisible();
});

test("undoes one pending change from its row and another from the review; the rest is saved", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  await Promise.all(
    ["UNDO_A", "UNDO_B", "UNDO_C"].map((key) => seedSecret(service, project, { key, value: `old-${key}` })),
  );
  await openSecrets(page, project);
  for (const key of ["UNDO_A", "UNDO_B", "UNDO_C"]) await stageValue(page, key, `new-${key}`);
  await expect(pendingBar(page)).toContainText("3 changes");

  await secretRow(page, "UNDO_A").getByRole("button", { name: "Undo changes to UNDO_A" }).click();
  await expect(secretRow(page, "UNDO_A").getByText("Edited")).toHaveCount(0);
  await expect(pendingBar(page)).toContainText("2 changes");

  await pendingBar(page).getByRole("button", { name: "Review changes (2)" }).click();
  const review = page.getByRole("dialog", { name: "Review changes (2)" });
  await review.getByRole("button", { name: "Undo changes to UNDO_B" }).click();
  await expect(page.getByRole("dialog", { name: "Review changes (1)" })).toBeVisible();
  await page.getByRole("dialog", { name: "Review changes (1)" }).getByRole("button", { name: "Save 1 change" }).click();
  // While the review is open the bar is outside the modal's accessibility tree, so "hidden" alone
  // would pass before the save ends: wait for the save's own word first.
  await expect(page.getByText("Changes saved")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(pendingBar(page)).toBeHidden();

  const [a, b, c] = await Promise.all(["UNDO_A", "UNDO_B", "UNDO_C"].map((key) => readSecret(service, project, key)));
  expect([a?.secretValue, b?.secretValue, c?.secretValue]).toEqual(["old-UNDO_A", "old-UNDO_B", "new-UNDO_C"]);
});

test("selects a range with shift-click and deletes it in one confirmed request", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  const keys = ["PICK_1", "PICK_2", "PICK_3", "PICK_4", "PICK_5", "PICK_6"];
  await Promise.all(keys.map((key) => seedSecret(service, project, { key, value: key })));
  const sent = batchRequests(page);
  await openSecrets(page, project);

  await secretRow(page, "PICK_2").getByRole("checkbox", { name: "Select PICK_2" }).click();
  await secretRow(page, "PICK_5")
    .getByRole("checkbox", { name: "Select PICK_5" })
    .click({ modifiers: ["Shift"] });
  for (const key of ["PICK_2", "PICK_3", "PICK_4", "PICK_5"]) {
    await expect(secretRow(page, key).getByRole("checkbox")).toBeChecked();
  }
  await expect(secretRow(page, "PICK_6").getByRole("checkbox")).not.toBeChecked();
  const selection = page.getByRole("toolbar", { name: "Selected secrets" });
  await expect(selection).toContainText("4 secrets selected");

  await selection.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete 4 secrets?" });
  await expect(confirm).toContainText("PICK_2, PICK_3, PICK_4, PICK_5");
  const button = confirm.getByRole("button", { name: "Delete 4 secrets" });
  // More than one at once: the count is typed first.
  await expect(button).toBeDisabled();
  await confirm.getByLabel("Type 4 secrets to confirm").fill("4 secrets");
  await button.click();
  await expect(confirm).toBeHidden();
  await expect(secretRow(page, "PICK_3")).toHaveCount(0);

  expect(sent).toEqual(["DELETE /api/v3/secrets/batch/raw"]);
  expect(await listKeys(service, project)).toEqual(["PICK_1", "PICK_6"]);
});

test("selects all that match the search and copies them to another environment in one request", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  await Promise.all([
    seedSecret(service, project, { key: "MAIL_HOST", value: "smtp.example.com" }),
    seedSecret(service, project, { key: "MAIL_PORT", value: "587" }),
    seedSecret(service, project, { key: "OTHER", value: "x" }),
  ]);
  const sent = batchRequests(page);
  await openSecrets(page, project, "?q=mail");
  await page.getByRole("checkbox", { name: "Select all 2 shown" }).click();
  const selection = page.getByRole("toolbar", { name: "Selected secrets" });
  await expect(selection).toContainText("2 secrets selected");
  await selection.getByRole("button", { name: "Copy to environments…" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Copy 2 secrets to other environments?" });
  await confirm.getByRole("checkbox", { name: /prod/ }).check();
  await confirm.getByRole("button", { name: "Copy" }).click();
  await expect(confirm).toBeHidden();

  expect(sent).toEqual(["PATCH /api/v3/secrets/batch/raw"]);
  expect((await readSecret(service, project, "MAIL_HOST", "prod")).secretValue).toBe("smtp.example.com");
  expect((await readSecret(service, project, "MAIL_PORT", "prod")).secretValue).toBe("587");
});

test("asks before leaving the page with staged changes, and keeps them when staying", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  await seedSecret(service, project, { key: "GUARDED", value: "before" });
  await openSecrets(page, project);
  await stageValue(page, "GUARDED", "after");
  const projects = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Projects" });
  const question = page.getByRole("alertdialog", { name: "Discard unsaved changes?" });

  await projects.click();
  await expect(question).toBeVisible();
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(pendingBar(page)).toContainText("1 change");
  await expect(secretRow(page, "GUARDED").getByText("Edited")).toBeVisible();

  // Moving between environments of the page keeps them, without asking.
  await page.getByRole("navigation", { name: "Environments" }).getByRole("link", { name: "Production" }).click();
  await expect(page).toHaveURL(/env=prod/);
  await expect(question).toHaveCount(0);
  await expect(pendingBar(page)).toContainText("1 change");

  await projects.click();
  await question.getByRole("button", { name: "Discard changes" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
  expect((await readSecret(service, project, "GUARDED")).secretValue).toBe("before");
});

test("suggests references as ${ is typed and flags one that does not resolve", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  await Promise.all([
    seedSecret(service, project, { key: "DB_HOST", value: "db.internal" }),
    seedSecret(service, project, { key: "DB_URL", value: "postgres://db" }),
    seedSecret(service, project, { key: "SMTP_PASS", value: "p", environment: "prod" }),
  ]);
  await openSecrets(page, project);
  const row = secretRow(page, "DB_URL");
  await row.getByRole("button", { name: "Edit value of DB_URL" }).click();
  const input = row.getByRole("textbox", { name: "New value of DB_URL" });
  await expect(input).toHaveValue("postgres://db");
  await input.fill("postgres://");
  await input.pressSequentially("${DB_H");
  const suggestions = page.getByRole("listbox", { name: "References" });
  await expect(suggestions.getByRole("option")).toHaveText([/DB_HOST/]);
  await input.press("Enter");
  await expect(input).toHaveValue("postgres://${DB_HOST}");
  await input.pressSequentially("/${prod.");
  await expect(suggestions.getByRole("option", { name: /SMTP_PASS/ })).toBeVisible();
  await suggestions.getByRole("option", { name: /SMTP_PASS/ }).click();
  await expect(input).toHaveValue("postgres://${DB_HOST}/${prod.SMTP_PASS}");
  // The reference is complete: the list closes.
  await expect(suggestions).toHaveCount(0);
  await input.pressSequentially("?${MISSING_KEY}");
  await input.press("Enter");
  await expect(row).toContainText("A reference does not resolve: ${MISSING_KEY}");
});

test("moves selected secrets to another folder: one create there, one delete here", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  await service(endpoints["folders.create"], {
    body: { workspaceId: project.id, environment: "dev", path: "/", name: "app" },
  });
  await Promise.all([
    seedSecret(service, project, { key: "MOVE_A", value: "a", comment: "first" }),
    seedSecret(service, project, { key: "MOVE_B", value: "b" }),
    seedSecret(service, project, { key: "STAYS", value: "s" }),
  ]);
  const sent = batchRequests(page);
  await openSecrets(page, project);
  await secretRow(page, "MOVE_A").getByRole("checkbox", { name: "Select MOVE_A" }).click();
  await secretRow(page, "MOVE_B").getByRole("checkbox", { name: "Select MOVE_B" }).click();
  await page
    .getByRole("toolbar", { name: "Selected secrets" })
    .getByRole("button", { name: "Move to folder…" })
    .click();
  const confirm = page.getByRole("alertdialog", { name: "Move 2 secrets?" });
  await confirm.getByLabel("Folder in dev").fill("/app");
  await confirm.getByRole("button", { name: "Move 2 secrets" }).click();
  await expect(confirm).toBeHidden();
  await expect(secretRow(page, "MOVE_A")).toHaveCount(0);

  expect(sent).toEqual(["POST /api/v3/secrets/batch/raw", "DELETE /api/v3/secrets/batch/raw"]);
  expect(await listKeys(service, project)).toEqual(["STAYS"]);
  const moved = await readSecret(service, project, "MOVE_A", "dev", "/app");
  expect(moved).toMatchObject({ secretValue: "a", secretComment: "first" });
});

test("a save the server refuses keeps all its changes, with the server's reason on the row it names", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  await seedSecret(service, project, { key: "EDIT_ME", value: "old" });
  const sent = batchRequests(page);
  await openSecrets(page, project);
  await stageValue(page, "EDIT_ME", "new");
  await page.getByRole("button", { name: "Add row" }).click();
  const add = page.getByRole("dialog", { name: "Add a row" });
  await add.getByLabel("Key").fill("TAKEN_MEANWHILE");
  await add.getByLabel("Value").fill("mine");
  await add.getByRole("button", { name: "Add to changes" }).click();
  await expect(secretRow(page, "TAKEN_MEANWHILE")).toContainText("New");
  // Someone else creates the same key before the save.
  await seedSecret(service, project, { key: "TAKEN_MEANWHILE", value: "theirs" });

  await pendingBar(page).getByRole("button", { name: "Save 2 changes" }).click();
  const review = page.getByRole("dialog", { name: "Review changes (2)" });
  await expect(review.getByRole("listitem", { name: "New TAKEN_MEANWHILE" })).toContainText(
    "Secret already exists: TAKEN_MEANWHILE",
  );
  // One request, all or nothing: the edit is not applied either, and both stay pending.
  expect(sent).toEqual(["POST /api/v1/pit/batch/commit"]);
  expect((await readSecret(service, project, "EDIT_ME")).secretValue).toBe("old");
  expect((await readSecret(service, project, "TAKEN_MEANWHILE")).secretValue).toBe("theirs");
  await review.getByRole("button", { name: "Keep editing" }).click();
  await expect(pendingBar(page)).toContainText("2 changes");
  // The staged row keeps the server's reason; the secret the other person made is listed beside it.
  const rows = secretRow(page, "TAKEN_MEANWHILE");
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "New" })).toContainText("Secret already exists: TAKEN_MEANWHILE");
});
