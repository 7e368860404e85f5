import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";
import { openSecrets } from "../support/secrets.ts";
import { isPing, type StreamReceiver, startStreamReceiver } from "../support/stream-receiver.ts";

/**
 * The organisation's audit settings: streams to a receiver started here, the org default
 * retention and chain verification. Streams belong to the whole organisation, so these tests
 * take turns.
 */
test.describe.configure({ mode: "serial" });

let receiver: StreamReceiver;
test.beforeEach(async () => {
  receiver = await startStreamReceiver();
});
test.afterEach(async ({ service }) => {
  // Streams left by a failed test would send this organisation's events to a closed port.
  const { auditLogStreams } = await service(endpoints["auditLogStreams.list"], {});
  for (const stream of auditLogStreams.filter((s) => s.credentials.url === receiver.url)) {
    await service(endpoints["auditLogStreams.delete"], { params: { provider: stream.provider, streamId: stream.id } });
  }
  await receiver.close();
});

test("a stream added in the console is pinged, receives a test event and shows its delivery", async ({
  signedIn: page,
}) => {
  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Organization settings" })).toBeVisible();
  const streams = page.getByRole("region", { name: "Streams" });
  await streams.getByRole("button", { name: "Add stream" }).first().click();

  const dialog = page.getByRole("dialog", { name: "Add stream" });
  await dialog.getByLabel("URL").fill(receiver.url);
  await dialog.getByRole("button", { name: "Add header" }).click();
  await dialog.getByLabel("Header 1 name").fill("X-Receiver-Key");
  await dialog.getByLabel("Header 1 value").fill("rk-not-shown-123");
  await dialog.getByRole("button", { name: "Add stream" }).click();
  await expect(dialog).toBeHidden();

  // The server pinged the URL with the header before it saved the stream.
  expect(receiver.received.filter((d) => isPing(d.body)).map((d) => d.headers["x-receiver-key"])).toEqual([
    "rk-not-shown-123",
  ]);
  const row = streams.getByRole("listitem").filter({ hasText: receiver.url });
  await expect(row).toContainText("Headers: X-Receiver-Key (values hidden)");
  await expect(page.getByText("rk-not-shown-123")).toHaveCount(0);

  await row.getByRole("button", { name: `Send test event to ${receiver.url}` }).click();
  await expect(row.getByText(/^Test event delivered/)).toBeVisible();
  await expect.poll(() => receiver.events().length).toBeGreaterThan(0);
  expect(receiver.received.at(-1)?.headers["x-receiver-key"]).toBe("rk-not-shown-123");
  // The delivery state follows without a reload.
  await expect(row.getByText("Delivering")).toBeVisible();
  await expect(row.locator("time").first()).toBeVisible();

  // Saved again with the value left blank: the stored value is kept (the new ping carries it).
  await row.getByRole("button", { name: `Edit stream ${receiver.url}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit stream" });
  await expect(edit.getByLabel("Header 1 value (saved; leave blank to keep)")).toHaveValue("");
  await edit.getByRole("button", { name: "Save stream" }).click();
  await expect(edit).toBeHidden();
  expect(receiver.received.filter((d) => isPing(d.body)).map((d) => d.headers["x-receiver-key"])).toEqual([
    "rk-not-shown-123",
    "rk-not-shown-123",
  ]);

  await row.getByRole("button", { name: `Delete stream ${receiver.url}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete stream" });
  await expect(confirm).toContainText(receiver.url);
  await confirm.getByRole("button", { name: "Delete stream" }).click();
  // While the confirmation is open the list is outside the modal's accessibility tree, where the
  // row counts as gone already: wait for the confirmation to close first.
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
});

test("a URL that does not answer is refused on the form, with the server's reason", async ({ signedIn: page }) => {
  await receiver.close();
  await page.goto("/settings");
  const streams = page.getByRole("region", { name: "Streams" });
  await streams.getByRole("button", { name: "Add stream" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add stream" });
  await dialog.getByLabel("URL").fill(receiver.url);
  await dialog.getByRole("button", { name: "Add stream" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Failed to connect with upstream source");
  await expect(dialog).toBeVisible();
  receiver = await startStreamReceiver();
});

test("a change made in the console reaches the stream's receiver", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  await service(endpoints["auditLogStreams.create"], {
    params: { provider: "custom" },
    body: { credentials: { url: receiver.url, headers: [] } },
  });
  const key = `AUDITED_${uniqueName("key").replaceAll("-", "_").toUpperCase()}`;
  await openSecrets(page, seededProject, "?env=dev");
  await page.getByRole("button", { name: "Create secret" }).click();
  const dialog = page.getByRole("dialog", { name: "Create secret" });
  await dialog.getByLabel("Key").fill(key);
  await dialog.getByLabel("Value").fill("value-never-streamed");
  await dialog.getByRole("button", { name: "Create secret" }).click();
  await expect(dialog).toBeHidden();

  await expect
    .poll(() => receiver.events().filter((e) => e.eventType === "create-secret" && JSON.stringify(e).includes(key)))
    .toHaveLength(1);
  expect(JSON.stringify(receiver.received)).not.toContain("value-never-streamed");
});

test("the organisation's default retention is saved", async ({ signedIn: page, service }) => {
  const before = await service(endpoints["organizations.getAuditLogsRetention"], {});
  try {
    await page.goto("/settings");
    const field = page.getByLabel("Organization default (days)");
    await expect(field).toHaveValue(String(before.auditLogsRetentionDays));
    await field.fill("0");
    await page.getByRole("button", { name: "Save retention" }).click();
    await expect(page.getByText("Keep events for at least 1 day")).toBeVisible();
    await field.fill("45");
    await page.getByRole("button", { name: "Save retention" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Retention saved" })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Organization default (days)")).toHaveValue("45");
    expect((await service(endpoints["organizations.getAuditLogsRetention"], {})).auditLogsRetentionDays).toBe(45);
  } finally {
    await service(endpoints["organizations.updateAuditLogsRetention"], {
      body: { auditLogsRetentionDays: before.auditLogsRetentionDays },
    });
  }
});

test("verifying the chain says that it holds and how many events were checked", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  // At least one event: a secret read with its value.
  await service(endpoints["secrets.create"], {
    params: { secretName: "CHAIN_CHECK" },
    body: { workspaceId: seededProject.id, environment: "dev", secretPath: "/", secretValue: "v" },
  });
  await page.goto("/settings");
  const section = page.getByRole("region", { name: "Chain verification" });
  await section.getByRole("button", { name: "Verify now" }).click();
  await expect(section.getByText("The chain holds")).toBeVisible();
  await expect(section.getByText(/^[\d,]+ events? checked, from /)).toBeVisible();
});
