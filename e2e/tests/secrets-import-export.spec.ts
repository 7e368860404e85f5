import { readFile } from "node:fs/promises";
import { endpoints, type Project } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import type { ServiceCall } from "../support/api.ts";
import { expect, test } from "../support/fixtures.ts";
import { openSecrets, seedSecret } from "../support/secrets.ts";

/**
 * Import and export of a folder's secrets against the real service: seeded through the API,
 * imported through the console's dialog, read back through the API, exported as a download.
 */

async function folderValues(service: ServiceCall, project: Project, secretPath = "/") {
  const { secrets } = await service(endpoints["secrets.list"], {
    query: { workspaceId: project.id, environment: "dev", secretPath, viewSecretValue: "true" },
  });
  return Object.fromEntries(secrets.map((secret) => [secret.secretKey, secret.secretValue]));
}

const importDialog = (page: Page) => page.getByRole("dialog", { name: "Import secrets" });
const reviewDialog = (page: Page) => page.getByRole("dialog", { name: "Review the import" });
const tab = (page: Page, name: string) => reviewDialog(page).getByRole("tab", { name: new RegExp(`^${name}`) });

/**
 * A .env file of exactly 200 lines: 10 unchanged keys, 10 changed, new ones (one multiline, one
 * set twice), 3 invalid lines (a bad key, an unterminated quote, the earlier of the two), comments;
 * and what the folder should hold after importing it.
 */
function twoHundredLines() {
  const lines: string[] = ["# Generated for the import test", ""];
  const expected: Record<string, string> = {};
  for (let n = 0; n < 10; n++) {
    lines.push(`SAME_${n}=same-${n}`);
    expected[`SAME_${n}`] = `same-${n}`;
  }
  for (let n = 0; n < 10; n++) {
    lines.push(`CHANGED_${n}=changed-${n}-new`);
    expected[`CHANGED_${n}`] = `changed-${n}-new`;
  }
  lines.push("", "# the database", "DB_URL='postgres://u:p@db/app?ssl=true#x'");
  expected.DB_URL = "postgres://u:p@db/app?ssl=true#x";
  lines.push('CERT="-----BEGIN CERT-----', "abc", '-----END CERT-----"');
  expected.CERT = "-----BEGIN CERT-----\nabc\n-----END CERT-----";
  lines.push("MY KEY=has a space");
  lines.push('BROKEN="never closed');
  lines.push("NEW_DUP=first");
  for (let n = 0; lines.length < 199; n++) {
    lines.push(`NEW_${String(n).padStart(3, "0")}=value ${n} # comment ${n}`);
    expected[`NEW_${String(n).padStart(3, "0")}`] = `value ${n}`;
  }
  lines.push("NEW_DUP=second");
  expected.NEW_DUP = "second";
  return { lines, expected };
}

test("imports a 200-line .env with 3 invalid lines after a preview, then exports it back unchanged", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  for (let n = 0; n < 10; n++) {
    await seedSecret(service, project, { key: `SAME_${n}`, value: `same-${n}` });
    await seedSecret(service, project, { key: `CHANGED_${n}`, value: `changed-${n}-old` });
  }
  const { lines, expected } = twoHundredLines();
  expect(lines).toHaveLength(200);
  const file = `${lines.join("\n")}\n`;
  await openSecrets(page, project, "?env=dev");

  await page.getByRole("button", { name: "Import", exact: true }).click();
  await importDialog(page)
    .getByLabel("File to import")
    .setInputFiles({ name: "app.env", mimeType: "text/plain", buffer: Buffer.from(file) });
  await expect(importDialog(page)).toContainText("app.env");
  await importDialog(page).getByRole("button", { name: "Preview" }).click();

  const newCount = Object.keys(expected).length - 20;
  await expect(tab(page, "New")).toContainText(String(newCount));
  await expect(tab(page, "Changed")).toContainText("10");
  await expect(tab(page, "Unchanged")).toContainText("10");
  await expect(tab(page, "Invalid")).toContainText("3");

  // Changed keys first: masked, and compared on request (the folder's value read then).
  const changed = reviewDialog(page).getByRole("list", { name: "Changed keys" });
  await expect(changed.getByText("CHANGED_0", { exact: true })).toBeVisible();
  await expect(reviewDialog(page).getByText("changed-0-new")).toHaveCount(0);
  await changed.getByRole("button", { name: "Reveal values of CHANGED_0" }).click();
  await expect(changed).toContainText("changed-0-old");
  await expect(changed).toContainText("changed-0-new");
  // Revealed values mask again when the window loses focus.
  await page.evaluate(() => window.dispatchEvent(new Event("blur")));
  await expect(changed).not.toContainText("changed-0-new");
  await expect(changed.getByRole("button", { name: "Reveal values of CHANGED_0" })).toBeVisible();

  await tab(page, "Invalid").click();
  const invalid = reviewDialog(page).getByRole("list", { name: "Invalid lines" });
  await expect(invalid.getByRole("listitem")).toHaveCount(3);
  await expect(invalid.getByRole("listitem").nth(0)).toContainText(`Line ${lines.indexOf("MY KEY=has a space") + 1}`);
  await expect(invalid.getByRole("listitem").nth(0)).toContainText("bad key");
  await expect(invalid.getByRole("listitem").nth(1)).toContainText("unterminated quote");
  await expect(invalid.getByRole("listitem").nth(2)).toContainText("duplicate");
  await expect(invalid).not.toContainText("has a space");

  const writes = page.waitForRequest((request) => request.url().includes("/api/v3/secrets/batch/raw"));
  await reviewDialog(page)
    .getByRole("button", { name: `Import ${newCount + 10} secrets` })
    .click();
  const request = await writes;
  expect(request.method()).toBe("PATCH");
  expect(request.postDataJSON()).toMatchObject({ mode: "upsert", environment: "dev", secretPath: "/" });
  expect(request.postDataJSON().secrets).toHaveLength(newCount + 10);
  await expect(page.getByText("Secrets imported")).toBeVisible();
  await expect(reviewDialog(page)).toBeHidden();

  expect(await folderValues(service, project)).toEqual(expected);
  const { secret: db } = await service(endpoints["secrets.get"], {
    params: { secretName: "DB_URL" },
    query: { workspaceId: project.id, environment: "dev", secretPath: "/" },
  });
  expect(db.secretComment).toBe("the database");

  // Export as .env: the download holds every key and value, and imports back as unchanged.
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const exportDialog = page.getByRole("dialog", { name: "Export secrets" });
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    exportDialog.getByRole("button", { name: "Download .env" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("dev.env");
  const exported = await readFile(await download.path(), "utf8");
  // Keys in order, multiline values quoted, comments above their keys.
  expect(exported).toContain("CERT='-----BEGIN CERT-----\nabc\n-----END CERT-----'\n");
  expect(exported).toContain("\n\n# the database\nDB_URL='postgres://u:p@db/app?ssl=true#x'\n");
  expect(exported).toContain("\nNEW_000='value 0'\n");
  expect(exported.split("\n").filter((line) => /^[A-Z_0-9]+=/.test(line))).toHaveLength(Object.keys(expected).length);
  await expect(exportDialog).toBeHidden();

  await page.getByRole("button", { name: "Import", exact: true }).click();
  await importDialog(page)
    .getByLabel("File to import")
    .setInputFiles({ name: "dev.env", mimeType: "text/plain", buffer: Buffer.from(exported) });
  await importDialog(page).getByRole("button", { name: "Preview" }).click();
  await expect(tab(page, "Unchanged")).toContainText(String(Object.keys(expected).length));
  await expect(tab(page, "New")).toContainText("0");
  await expect(tab(page, "Changed")).toContainText("0");
  await expect(reviewDialog(page).getByRole("button", { name: "Nothing to import" })).toBeDisabled();
});

const pasted = [
  {
    format: "JSON",
    text: JSON.stringify({ API_KEY: "k-1", db: { host: "db.internal", port: 5432 }, FLAGS: ["a", "b"] }, null, 2),
    expected: { API_KEY: "k-1", DB_HOST: "db.internal", DB_PORT: "5432", FLAGS: '["a","b"]' },
  },
  {
    format: "YAML",
    text: "API_KEY: k-1\nCERT: |\n  line one\n  line two\ndb:\n  host: db.internal\nPORT: 05432\n",
    expected: { API_KEY: "k-1", CERT: "line one\nline two\n", DB_HOST: "db.internal", PORT: "05432" },
  },
] as const;

for (const { format, text, expected } of pasted) {
  test(`imports pasted ${format}`, async ({ signedIn: page, service, seededProject: project }) => {
    await openSecrets(page, project, "?env=dev");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    // The format is told from the text itself.
    await importDialog(page).getByLabel("Or paste the contents").fill(text);
    await expect(importDialog(page).getByLabel("Format")).toHaveValue(format.toLowerCase());
    await importDialog(page).getByRole("button", { name: "Preview" }).click();
    const count = Object.keys(expected).length;
    await expect(tab(page, "New")).toContainText(String(count));
    await reviewDialog(page)
      .getByRole("button", { name: `Import ${count} secrets` })
      .click();
    await expect(page.getByText("Secrets imported")).toBeVisible();
    expect(await folderValues(service, project)).toEqual(expected);
  });
}

test("imports pasted CSV from the columns picked", async ({ signedIn: page, service, seededProject: project }) => {
  await seedSecret(service, project, { key: "API_KEY", value: "old" });
  await openSecrets(page, project, "?env=dev");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const dialog = importDialog(page);
  await dialog.getByLabel("Format").selectOption({ label: "CSV" });
  await dialog
    .getByLabel("Or paste the contents")
    .fill('name,staging,production,notes\nAPI_KEY,k-stage,k-prod,the API\nDB_URL,db-stage,"db,prod",\n');
  await expect(dialog.getByLabel("The first row is a header")).toBeChecked();
  await expect(dialog.getByLabel("Key column")).toHaveValue("0");
  await dialog.getByLabel("Value column").selectOption({ label: "production" });
  await dialog.getByLabel("Comment column").selectOption({ label: "notes" });
  await dialog.getByRole("button", { name: "Preview" }).click();
  await expect(tab(page, "New")).toContainText("1");
  await expect(tab(page, "Changed")).toContainText("1");
  await reviewDialog(page).getByRole("button", { name: "Import 2 secrets" }).click();
  await expect(page.getByText("Secrets imported")).toBeVisible();
  expect(await folderValues(service, project)).toEqual({ API_KEY: "k-prod", DB_URL: "db,prod" });
});

test("exports JSON with what the folder's imports provide, the folder's own keys winning", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  await seedSecret(service, project, { key: "OWN", value: "own-value" });
  await seedSecret(service, project, { key: "SHARED", value: "dev wins" });
  await seedSecret(service, project, { key: "SHARED", value: "prod loses", environment: "prod" });
  await seedSecret(service, project, { key: "FROM_PROD", value: "line one\nline two", environment: "prod" });
  await service(endpoints["secretImports.create"], {
    body: { workspaceId: project.id, environment: "dev", path: "/", import: { environment: "prod", path: "/" } },
  });
  await openSecrets(page, project, "?env=dev");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Export secrets" });
  await dialog.getByRole("radio", { name: /JSON/ }).check();

  const own = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Download JSON" }).click(),
  ]);
  expect(own[0].suggestedFilename()).toBe("dev.json");
  expect(JSON.parse(await readFile(await own[0].path(), "utf8"))).toEqual({ OWN: "own-value", SHARED: "dev wins" });

  await page.getByRole("button", { name: "Export", exact: true }).click();
  await dialog.getByRole("radio", { name: /JSON/ }).check();
  await dialog.getByLabel(/Include what this folder's imports provide/).check();
  const all = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Download JSON" }).click(),
  ]);
  expect(JSON.parse(await readFile(await all[0].path(), "utf8"))).toEqual({
    FROM_PROD: "line one\nline two",
    OWN: "own-value",
    SHARED: "dev wins",
  });
});

test("asks before closing the import with pasted text", async ({ signedIn: page, seededProject: project }) => {
  await openSecrets(page, project, "?env=dev");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await importDialog(page).getByLabel("Or paste the contents").fill("A=1");
  await page.keyboard.press("Escape");
  const question = page.getByRole("alertdialog", { name: "Discard unsaved changes?" });
  await expect(question).toBeVisible();
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(importDialog(page).getByLabel("Or paste the contents")).toHaveValue("A=1");
});
