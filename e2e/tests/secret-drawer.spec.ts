import { endpoints, type Project } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import type { ServiceCall } from "../support/api.ts";
import { ServiceError } from "../support/api.ts";
import { expect, test as base, uniqueName } from "../support/fixtures.ts";

/**
 * The secret drawer against the real service: a project and its secrets are created through the
 * API, opened from the secrets page, changed in the drawer and read back through the API.
 */
const test = base.extend<{ project: Project }>({
  project: async ({ service }, use) => {
    const { project } = await service(endpoints["projects.create"], {
      body: { projectName: uniqueName("e2e-drawer"), shouldCreateDefaultEnvs: true },
    });
    await use(project);
    try {
      await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
    } catch (error) {
      if (!(error instanceof ServiceError && error.status === 404)) throw error;
    }
  },
});

const at = (project: Project) => ({ workspaceId: project.id, environment: "dev", secretPath: "/" });

async function createSecret(service: ServiceCall, project: Project, key: string, value: string, comment = "") {
  await service(endpoints["secrets.create"], {
    params: { secretName: key },
    body: { ...at(project), secretValue: value, secretComment: comment },
  });
}

async function readSecret(service: ServiceCall, project: Project, key: string) {
  return (await service(endpoints["secrets.get"], { params: { secretName: key }, query: at(project) })).secret;
}

async function openDrawer(page: Page, project: Project, key: string) {
  await page.goto(`/projects/${project.id}/secrets?env=dev`);
  await page.getByRole("button", { name: `Open ${key}`, exact: true }).click();
  const drawer = page.getByRole("dialog", { name: key, exact: true });
  await expect(drawer.getByLabel("Name", { exact: true })).toHaveValue(key);
  return drawer;
}

test("edits the value (multiline, skipping the encoding), comment, tags, metadata and reminder, as the API then reads them", async ({
  signedIn: page,
  service,
  project,
}) => {
  const { workspaceTag: backend } = await service(endpoints["tags.create"], {
    params: { workspaceId: project.id },
    body: { slug: "backend", color: "#4f46e5" },
  });
  await createSecret(service, project, "TLS_KEY", "old-key", "server key");
  const drawer = await openDrawer(page, project, "TLS_KEY");

  await expect(drawer).not.toContainText("old-key");
  await drawer.getByRole("button", { name: "Reveal value" }).click();
  const value = drawer.getByRole("textbox", { name: "Value" });
  await expect(value).toHaveValue("old-key");
  await value.fill("-----BEGIN KEY-----\nabc\n-----END KEY-----");
  await drawer.getByRole("switch", { name: "Skip multiline encoding" }).click();
  await drawer.getByLabel("Comment").fill("rotated server key");
  await drawer.getByRole("checkbox", { name: "backend" }).check();
  await drawer.getByRole("textbox", { name: "New tag" }).fill("tls");
  await drawer.getByRole("button", { name: "Create tag" }).click();
  await expect(drawer.getByRole("checkbox", { name: "tls" })).toBeChecked();
  await drawer.getByRole("button", { name: "Add metadata" }).click();
  await drawer.getByRole("textbox", { name: "Metadata key 1" }).fill("owner");
  await drawer.getByRole("textbox", { name: "Metadata value 1" }).fill("platform");
  await drawer.getByLabel("Note").fill("Renew the certificate");
  await drawer.getByLabel("Repeat every (days)").fill("90");
  await drawer.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Secret saved" })).toBeVisible();
  await expect(drawer.getByText("Version 2")).toBeVisible();

  const saved = await readSecret(service, project, "TLS_KEY");
  expect(saved).toMatchObject({
    version: 2,
    secretValue: "-----BEGIN KEY-----\nabc\n-----END KEY-----",
    skipMultilineEncoding: true,
    secretComment: "rotated server key",
    secretReminderNote: "Renew the certificate",
    secretReminderRepeatDays: 90,
  });
  expect(saved.tags?.map((tag) => tag.slug).sort()).toEqual(["backend", "tls"]);
  expect(saved.tags?.find((tag) => tag.slug === "backend")?.id).toBe(backend.id);
  expect(saved.secretMetadata?.map(({ key, value }) => ({ key, value }))).toEqual([
    { key: "owner", value: "platform" },
  ]);
});

test("renames a secret, and shows the server's reason on the name when the new name is taken", async ({
  signedIn: page,
  service,
  project,
}) => {
  await createSecret(service, project, "DATABASE_URL", "postgres://db/main", "primary database");
  await createSecret(service, project, "TAKEN_NAME", "x");
  const drawer = await openDrawer(page, project, "DATABASE_URL");

  const name = drawer.getByLabel("Name", { exact: true });
  await name.fill("TAKEN_NAME");
  await drawer.getByRole("button", { name: "Save changes" }).click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(drawer.getByText(/already exists/)).toBeVisible();

  await name.fill("PRIMARY_DATABASE_URL");
  await drawer.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("dialog", { name: "PRIMARY_DATABASE_URL", exact: true })).toBeVisible();
  const renamed = await readSecret(service, project, "PRIMARY_DATABASE_URL");
  expect(renamed).toMatchObject({ secretValue: "postgres://db/main", secretComment: "primary database" });
  await expect(readSecret(service, project, "DATABASE_URL")).rejects.toMatchObject({ status: 404 });
});

test("lists the versions with a diff, and restoring an old one makes its value current as a new version", async ({
  signedIn: page,
  service,
  project,
}) => {
  await createSecret(service, project, "API_TOKEN", "token-first", "issued");
  for (const [secretValue, secretComment] of [
    ["token-second", "rotated"],
    ["token-third", "rotated again"],
  ] as const) {
    await service(endpoints["secrets.update"], {
      params: { secretName: "API_TOKEN" },
      body: { ...at(project), secretValue, secretComment },
    });
  }
  const drawer = await openDrawer(page, project, "API_TOKEN");
  await drawer.getByRole("tab", { name: "Version history" }).click();

  const versions = drawer.getByRole("list", { name: "Versions" });
  await expect(versions.getByRole("button", { name: /^Version \d/ })).toHaveText([
    /^Version 3Current.*admin/i,
    /^Version 2.*admin/i,
    /^Version 1.*admin/i,
  ]);
  await versions.getByRole("button", { name: /^Version 2/ }).click();
  const diff = drawer.getByRole("list", { name: "Value: version 1 → version 2" });
  await expect(diff).toContainText("Removed: hidden");
  await expect(diff).not.toContainText("token-first");
  await drawer.getByRole("button", { name: "Reveal values" }).click();
  await expect(diff.getByRole("listitem")).toHaveText([/Removed: token-first$/, /Added: token-second$/]);
  await expect(drawer.getByRole("list", { name: "Comment: version 1 → version 2" })).toContainText("Added: rotated");

  await versions.getByRole("button", { name: /^Version 1/ }).click();
  await drawer.getByRole("button", { name: "Restore version 1" }).click();
  await page.getByRole("alertdialog", { name: "Restore version 1?" }).getByRole("button", { name: "Restore" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Version 1 restored" })).toBeVisible();
  await expect(versions.getByRole("button", { name: /^Version 4 Current/ })).toBeVisible();

  const restored = await readSecret(service, project, "API_TOKEN");
  expect(restored).toMatchObject({ version: 4, secretValue: "token-first", secretComment: "rotated again" });
});

test("asks before closing with unsaved changes; Escape closes it otherwise", async ({
  signedIn: page,
  service,
  project,
}) => {
  await createSecret(service, project, "SMTP_PASSWORD", "hunter2", "mail");
  const drawer = await openDrawer(page, project, "SMTP_PASSWORD");
  await drawer.getByLabel("Comment").fill("outgoing mail");
  await page.keyboard.press("Escape");
  const ask = page.getByRole("alertdialog", { name: "Discard unsaved changes?" });
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(drawer.getByLabel("Comment")).toHaveValue("outgoing mail");

  await page.keyboard.press("Escape");
  await ask.getByRole("button", { name: "Discard changes" }).click();
  // Under the open question the drawer is outside the accessibility tree, where it counts as hidden
  // already: wait for the question to close first.
  await expect(ask).toBeHidden();
  await expect(drawer).toBeHidden();
  expect((await readSecret(service, project, "SMTP_PASSWORD")).secretComment).toBe("mail");

  await page.getByRole("button", { name: "Open SMTP_PASSWORD", exact: true }).click();
  await expect(drawer.getByLabel("Comment")).toHaveValue("mail");
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
});

test("the open secret's name is in the address: a reload opens it again, and closing takes it out", async ({
  signedIn: page,
  service,
  project,
}) => {
  await createSecret(service, project, "QUEUE_URL", "amqp://mq.internal", "queue");
  await openDrawer(page, project, "QUEUE_URL");
  await expect(page).toHaveURL(/[?&]secret=QUEUE_URL(&|$)/);
  expect(page.url()).not.toContain("amqp");

  await page.reload();
  const drawer = page.getByRole("dialog", { name: "QUEUE_URL", exact: true });
  await expect(drawer.getByLabel("Comment")).toHaveValue("queue");
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(page).not.toHaveURL(/secret=/);
});
