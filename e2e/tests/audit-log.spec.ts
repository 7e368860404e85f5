import { readFile } from "node:fs/promises";
import { endpoints, type Project } from "@keyhold/contract";
import { readCsvTable } from "@keyhold/web/import-export/csv-file";
import type { Page } from "@playwright/test";
import type { ServiceCall } from "../support/api.ts";
import { expect, test, uniqueName } from "../support/fixtures.ts";

/**
 * The audit log page against the real service: events are produced through the API (or the
 * console), then found, filtered, opened and exported in the console.
 */

const at = (project: Project) => ({ workspaceId: project.id, environment: "dev", secretPath: "/" });

async function createSecrets(service: ServiceCall, project: Project, keys: string[]) {
  for (const key of keys) {
    await service(endpoints["secrets.create"], {
      params: { secretName: key },
      body: { ...at(project), secretValue: `value-of-${key}` },
    });
  }
}

/** The audit log of one project (a link, as "View activity" on the project builds it). */
async function openProjectLog(page: Page, project: Project, extra = "") {
  await page.goto(`/audit-log?range=1h&projectId=${project.id}${extra}`);
  return page.getByRole("table", { name: "Audit events" });
}

test("a secret changed in the console shows under its View activity, with the signed-in identity and the request id", async ({
  signedIn: page,
  service,
  session,
  seededProject: project,
}) => {
  await createSecrets(service, project, ["AUDITED_KEY"]);
  await page.goto(`/projects/${project.id}/secrets?env=dev`);
  await page.getByRole("button", { name: "Open AUDITED_KEY", exact: true }).click();
  const drawer = page.getByRole("dialog", { name: "AUDITED_KEY", exact: true });
  await drawer.getByLabel("Comment").fill("changed for the audit log");
  const saved = page.waitForResponse(
    (response) => response.request().method() === "PATCH" && response.url().includes("/secrets/") && response.ok(),
  );
  await drawer.getByRole("button", { name: "Save changes" }).click();
  const requestId = (await saved).headers()["x-request-id"];
  expect(requestId).toBeTruthy();
  await expect(page.getByRole("status").filter({ hasText: "Secret saved" })).toBeVisible();

  await drawer.getByRole("link", { name: "View activity of AUDITED_KEY" }).click();
  await expect(page).toHaveURL(/\/audit-log\?/);
  const url = new URL(page.url());
  expect(Object.fromEntries(url.searchParams)).toMatchObject({
    projectId: project.id,
    environment: "dev",
    secretPath: "/",
    secretKey: "AUDITED_KEY",
  });
  const table = page.getByRole("table", { name: "Audit events" });
  const update = table.getByRole("row", { name: new RegExp(`^Update secret by ${session.identity.name}`) });
  await expect(update).toHaveCount(1);
  await expect(table.getByRole("row", { name: /^Create secret by/ })).toHaveCount(1);

  await update.click();
  const details = page.getByRole("dialog", { name: "Update secret" });
  await expect(details.getByText(requestId as string, { exact: true })).toBeVisible();
  await expect(details.getByText(session.identity.name, { exact: true }).first()).toBeVisible();
  await expect(details).not.toContainText("value-of-AUDITED_KEY");
  expect(new URL(page.url()).searchParams.get("event")).toBeTruthy();
});

test("filters by event type in the URL, which a reload keeps", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  await createSecrets(service, project, ["FILTER_A", "FILTER_B"]);
  await service(endpoints["secrets.delete"], { params: { secretName: "FILTER_B" }, body: at(project) });
  const table = await openProjectLog(page, project);
  await expect(table.getByRole("row", { name: /^Create secret by/ })).toHaveCount(2);

  await page.getByRole("button", { name: "Add filter" }).click();
  await page.getByRole("menuitem", { name: "Event type" }).click();
  const picker = page.getByRole("dialog", { name: "Event filter" });
  await picker.getByPlaceholder("Search event types").fill("delete secret");
  await picker.getByRole("option", { name: /^Delete secret$/ }).click();
  await page.keyboard.press("Escape");

  await expect(page).toHaveURL(/eventType=delete-secret(&|$)/);
  await expect(table.getByRole("row", { name: /^Delete secret by/ })).toHaveCount(1);
  await expect(table.getByRole("row", { name: /^Create secret by/ })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("group", { name: "Filters" })).toContainText("Event:Delete secret");
  await expect(table.getByRole("row", { name: /^Delete secret by/ })).toHaveCount(1);
  await expect(table.getByRole("row", { name: /^Create secret by/ })).toHaveCount(0);

  await page.getByRole("button", { name: "Clear the event filter" }).click();
  await expect(page).not.toHaveURL(/eventType=/);
  await expect(table.getByRole("row", { name: /^Create secret by/ })).toHaveCount(2);
});

test("exports the filtered events as CSV, which reads back row for row", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  const keys = [uniqueName("EXPORT").toUpperCase().replaceAll("-", "_"), "EXPORT_TWO", "EXPORT_THREE"];
  await createSecrets(service, project, keys);
  const table = await openProjectLog(page, project, "&eventType=create-secret");
  await expect(table.getByRole("row", { name: /^Create secret by/ })).toHaveCount(3);

  await page.getByRole("button", { name: "Export" }).click();
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: /^CSV/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^audit-log-.*\.csv$/);
  const text = await readFile((await download.path()) as string, "utf8");
  const [header, ...rows] = readCsvTable(text).rows;
  const column = (name: string) => (header as string[]).indexOf(name);
  expect(rows).toHaveLength(3);
  expect(new Set(rows.map((row) => row[column("eventType")]))).toEqual(new Set(["create-secret"]));
  expect(new Set(rows.map((row) => row[column("secretKey")]))).toEqual(new Set(keys));
  expect(rows.every((row) => row[column("projectId")] === project.id)).toBe(true);
  const metadata = JSON.parse(rows[0]?.[column("eventMetadata")] as string) as Record<string, unknown>;
  expect(metadata).toMatchObject({ environment: "dev", secretPath: "/" });
  // No value ever reaches an event, nor the export.
  expect(text).not.toContain("value-of-");
  await expect(page.getByRole("status").filter({ hasText: "Exported 3 events" })).toBeVisible();
});

test("opens and closes an event's details by keyboard", async ({ signedIn: page, service, seededProject: project }) => {
  await createSecrets(service, project, ["KEYBOARD_A", "KEYBOARD_B"]);
  const table = await openProjectLog(page, project, "&eventType=create-secret");
  const rows = table.getByRole("row", { name: /^Create secret by/ });
  await expect(rows).toHaveCount(2);

  await rows.first().focus();
  await page.keyboard.press("ArrowDown");
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press("Enter");
  const details = page.getByRole("dialog", { name: "Create secret" });
  await expect(details.getByText("KEYBOARD_A", { exact: true }).first()).toBeVisible();
  const eventId = new URL(page.url()).searchParams.get("event");
  expect(eventId).toBeTruthy();
  await expect(details.getByText(eventId as string, { exact: true })).toBeVisible();

  await page.keyboard.press("Escape");
  await expect(details).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]event=/);
  await expect(rows.nth(1)).toBeFocused();
});

test("an identity's page links to the events it caused and to the events about it", async ({
  signedIn: page,
  seededIdentity,
}) => {
  const { identity } = seededIdentity;
  await page.goto(`/identities/${identity.id}`);
  await page.getByRole("link", { name: `Activity about ${identity.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`eventMetadata=identityId%3D${identity.id}`));
  await expect(page.getByRole("group", { name: "Filters" })).toContainText(`About:${identity.name}`);
  const table = page.getByRole("table", { name: "Audit events" });
  await expect(table.getByRole("row", { name: /^Create identity by/ })).toHaveCount(1);

  await page.goto(`/identities/${identity.id}`);
  await page.getByRole("link", { name: `Activity by ${identity.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`actor=${identity.id}`));
  await expect(page.getByRole("heading", { name: "No events in this window" })).toBeVisible();
});

test("a project's audit retention is shown and saved from its overview", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  await page.goto(`/projects/${project.id}`);
  const card = page.getByRole("region", { name: "Audit log retention" });
  await expect(card).toContainText(/Organization default: \d+ days/);
  await card.getByLabel("Keep events for (days)").fill("30");
  await card.getByRole("button", { name: "Save retention" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Audit retention saved" })).toBeVisible();
  await expect(card).toContainText("30 days (this project's own setting)");
  const { workspace } = await service(endpoints["projects.get"], { params: { workspaceId: project.id } });
  expect(workspace.auditLogsRetentionDays).toBe(30);
});
