import { endpoints } from "@keyhold/contract";
import { ServiceError } from "../support/api.ts";
import { expect, test as base, uniqueName } from "../support/fixtures.ts";

/** More identities than one page holds (20), sharing a unique prefix: `<prefix>-00` … `<prefix>-22`. */
const test = base.extend<{ manyIdentities: { prefix: string; names: string[] } }>({
  manyIdentities: async ({ service, session }, use) => {
    const prefix = uniqueName("paged");
    const names = Array.from({ length: 23 }, (_, i) => `${prefix}-${String(i).padStart(2, "0")}`);
    const created = await Promise.all(
      names.map((name) =>
        service(endpoints["identities.create"], { body: { name, organizationId: session.organization.id } }),
      ),
    );
    await use({ prefix, names });
    await Promise.all(
      created.map(({ identity }) => service(endpoints["identities.delete"], { params: { identityId: identity.id } })),
    );
  },
});

const listedNames = (page: import("@playwright/test").Page) =>
  page.getByRole("table", { name: "Identities" }).getByRole("link");

test("searches identities by name, on the service, with the search kept in the URL", async ({
  signedIn: page,
  manyIdentities: { prefix, names },
}) => {
  await page.goto("/identities");
  await page.getByRole("searchbox", { name: "Search identities" }).fill(prefix);
  await expect(page).toHaveURL(new RegExp(`\\?q=${prefix}$`));
  await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText("1–20 of 23");
  await expect(listedNames(page)).toHaveText(names.slice(0, 20));

  // A narrower search starts again on page 1 and counts only its matches.
  await page.getByRole("searchbox", { name: "Search identities" }).fill(`${prefix}-1`);
  await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText("1–10 of 10");
  await expect(listedNames(page)).toHaveText(names.slice(10, 20));

  // The URL alone brings the same search back.
  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search identities" })).toHaveValue(`${prefix}-1`);
  await expect(listedNames(page)).toHaveText(names.slice(10, 20));
});

test("pages through identities with previous and next", async ({
  signedIn: page,
  manyIdentities: { prefix, names },
}) => {
  await page.goto(`/identities?q=${prefix}`);
  const pagination = page.getByRole("navigation", { name: "Pagination" });
  await expect(pagination.getByRole("button", { name: "Previous page" })).toBeDisabled();
  await pagination.getByRole("link", { name: "Next page" }).click();

  await expect(page).toHaveURL(new RegExp(`\\?q=${prefix}&page=2$`));
  await expect(pagination).toContainText("21–23 of 23");
  await expect(listedNames(page)).toHaveText(names.slice(20));
  await expect(pagination.getByRole("button", { name: "Next page" })).toBeDisabled();

  await page.goBack();
  await expect(pagination).toContainText("1–20 of 23");
  await pagination.getByRole("link", { name: "Next page" }).click();
  await pagination.getByRole("link", { name: "Previous page" }).click();
  await expect(listedNames(page)).toHaveText(names.slice(0, 20));
});

test("keeps the current page on screen while the next one loads", async ({
  signedIn: page,
  manyIdentities: { prefix, names },
}) => {
  await page.goto(`/identities?q=${prefix}`);
  await expect(listedNames(page)).toHaveCount(20);
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/v1/identities/search", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next page" }).click();

  await expect(page).toHaveURL(/page=2$/);
  await expect(page.locator("[aria-busy=true]").getByRole("link", { name: names[0] })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Loading identities" })).toHaveCount(0);
  release();
  await expect(listedNames(page)).toHaveText(names.slice(20));
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
});

test("says when nothing matches, and clears the search", async ({ signedIn: page, manyIdentities: { prefix } }) => {
  await page.goto(`/identities?q=${prefix}-nothing`);
  await expect(page.getByRole("heading", { name: "No identities match" })).toBeVisible();
  await page.getByRole("button", { name: "Clear search" }).click();
  await expect(page).toHaveURL(/\/identities$/);
  await expect(page.getByRole("table", { name: "Identities" })).toBeVisible();
});

test("lists identities with their role", async ({ signedIn: page, seededIdentity }) => {
  await page.goto(`/identities?q=${seededIdentity.identity.name}`);
  const row = page.getByRole("row").filter({ hasText: seededIdentity.identity.name });
  await expect(row).toBeVisible();
  await expect(row).toContainText(/member/i);
});

test("creates an identity", async ({ signedIn: page, service }) => {
  const name = uniqueName("created");
  await page.goto("/identities");
  await page.getByRole("button", { name: "Create identity" }).first().click();

  const dialog = page.getByRole("dialog", { name: "Create identity" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create identity" }).click();

  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const id = page.url().split("/").pop() ?? "";
  const { identity } = await service(endpoints["identities.get"], { params: { identityId: id } });
  expect(identity.identity.name).toBe(name);
  expect(identity.role).toBe("no-access");
  await service(endpoints["identities.delete"], { params: { identityId: id } });
});

test("edits an identity's name and metadata", async ({ signedIn: page, service, seededIdentity }) => {
  const id = seededIdentity.identity.id;
  const newName = uniqueName("renamed");
  await page.goto(`/identities/${id}`);
  await page.getByRole("navigation", { name: "Identity sections" }).getByRole("link", { name: "Edit" }).click();

  await page.getByLabel("Name", { exact: true }).fill(newName);
  await page.getByRole("button", { name: "Add metadata" }).click();
  await page.getByLabel("Key").last().fill("region");
  await page.getByLabel("Value").last().fill("eu-west-1");
  await page.getByRole("button", { name: "Save changes" }).click();

  await expect(page.getByRole("heading", { level: 1, name: newName })).toBeVisible();
  const { identity } = await service(endpoints["identities.get"], { params: { identityId: id } });
  expect(identity.identity.name).toBe(newName);
  expect(identity.metadata?.map(({ key, value }) => ({ key, value }))).toEqual([
    { key: "team", value: "platform" },
    { key: "region", value: "eu-west-1" },
  ]);
});

test("shows the reason when a field is refused", async ({ signedIn: page, seededIdentity }) => {
  await page.goto(`/identities/${seededIdentity.identity.id}`);
  await page.getByRole("navigation", { name: "Identity sections" }).getByRole("link", { name: "Edit" }).click();
  await page.getByLabel("Name", { exact: true }).fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText(/name is required/i)).toBeVisible();
  await expect(page).toHaveURL(/\/edit$/);
});

test("deletes an identity only after confirmation", async ({ signedIn: page, service, seededIdentity }) => {
  const { id, name } = seededIdentity.identity;
  await page.goto(`/identities/${id}`);

  await page.getByRole("button", { name: "Delete identity" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(name);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  expect((await service(endpoints["identities.get"], { params: { identityId: id } })).identity.identityId).toBe(id);

  await page.getByRole("button", { name: "Delete identity" }).click();
  await expect(confirm.getByRole("button", { name: "Delete", exact: true })).toBeDisabled();
  await confirm.getByRole("textbox", { name: `Type ${name} to confirm` }).fill(name);
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();

  await expect(page).toHaveURL(/\/identities$/);
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  const error = await service(endpoints["identities.get"], { params: { identityId: id } }).catch((e) => e);
  expect(error).toBeInstanceOf(ServiceError);
  expect((error as ServiceError).status).toBe(404);
});

test("creates an identity with the keyboard alone", async ({ signedIn: page, service }) => {
  const name = uniqueName("keyboard");
  await page.goto("/identities");
  await page.getByRole("button", { name: "Create identity" }).first().focus();
  await page.keyboard.press("Enter");

  const dialog = page.getByRole("dialog", { name: "Create identity" });
  await expect(dialog.getByLabel("Name")).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press("Enter");

  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const id = page.url().split("/").pop() ?? "";
  await service(endpoints["identities.delete"], { params: { identityId: id } });
});

test("closes the create dialog with Escape without creating anything", async ({ signedIn: page, service }) => {
  const name = uniqueName("escaped");
  await page.goto("/identities");
  await page.getByRole("button", { name: "Create identity" }).first().click();
  await page.getByRole("dialog", { name: "Create identity" }).getByLabel("Name").fill(name);
  await page.keyboard.press("Escape");
  // The typed name is unsaved input: Escape asks before discarding it.
  await page
    .getByRole("alertdialog", { name: "Discard unsaved changes?" })
    .getByRole("button", { name: "Discard changes" })
    .click();

  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page.getByRole("button", { name: "Create identity" }).first()).toBeFocused();
  const { totalCount } = await service(endpoints["identities.search"], { body: { search: { name } } });
  expect(totalCount).toBe(0);
});

test("shows a not-found page for an identity that does not exist", async ({ signedIn: page }) => {
  await page.goto("/identities/00000000-0000-4000-8000-000000000000");
  await expect(page.getByText("This page does not exist")).toBeVisible();
  await page.getByRole("link", { name: "Go to identities" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
});

test("the signed-in identity cannot change its own role or delete itself", async ({ signedIn: page, session }) => {
  await page.goto(`/identities/${session.identity.id}`);
  await page.getByRole("button", { name: "Delete identity" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("an identity cannot delete itself");
  await expect(confirm.getByRole("button", { name: "Delete", exact: true })).toBeDisabled();
  await confirm.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("navigation", { name: "Identity sections" }).getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("combobox", { name: "Organization role" })).toBeDisabled();
  await expect(page.getByText("its role can only be changed by another admin")).toBeVisible();
});

test("lists the projects an identity belongs to, with its roles and temporary access", async ({
  signedIn: page,
  service,
  seededIdentity,
}) => {
  const projectName = uniqueName("memberships");
  const { project } = await service(endpoints["projects.create"], { body: { projectName } });
  try {
    const identityId = seededIdentity.identity.id;
    await service(endpoints["identityMemberships.add"], {
      params: { projectId: project.id, identityId },
      body: {
        roles: [
          { role: "viewer" },
          {
            role: "member",
            isTemporary: true,
            temporaryMode: "relative",
            temporaryRange: "1h",
            temporaryAccessStartTime: new Date().toISOString(),
          },
        ],
      },
    });
    await page.goto(`/identities/${identityId}`);
    const section = page.getByRole("region", { name: "Project memberships" });
    const row = section.getByRole("row").filter({ hasText: projectName });
    await expect(row).toContainText("Viewer");
    await expect(row).toContainText(/Member\s*Temporary, until/);
    await row.getByRole("link", { name: projectName }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${project.id}`));
  } finally {
    await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
  }
});

test("says when an identity is in no project yet, and where to add it", async ({ signedIn: page, seededIdentity }) => {
  await page.goto(`/identities/${seededIdentity.identity.id}`);
  const section = page.getByRole("region", { name: "Project memberships" });
  await expect(section.getByRole("heading", { name: "Not a member of any project" })).toBeVisible();
  await section.getByRole("link", { name: "Go to projects" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
});

test("shows a universal-auth lockout after failed sign-ins, and clears it", async ({
  signedIn: page,
  service,
  seededIdentity,
}) => {
  const identityId = seededIdentity.identity.id;
  const { identityUniversalAuth } = await service(endpoints["universalAuth.attach"], {
    params: { identityId },
    body: { lockoutThreshold: 1 },
  });
  const { clientSecret } = await service(endpoints["universalAuth.createClientSecret"], {
    params: { identityId },
    body: {},
  });
  const login = (secret: string) =>
    service(endpoints["universalAuth.login"], {
      body: { clientId: identityUniversalAuth.clientId, clientSecret: secret },
    });
  expect(((await login("0".repeat(64)).catch((e) => e)) as ServiceError).status).toBe(401);
  const locked = (await login(clientSecret).catch((e) => e)) as ServiceError;
  expect(locked.status).toBe(401);

  await page.goto(`/identities/${identityId}`);
  const row = page
    .getByRole("region", { name: "Auth methods" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Universal auth", exact: true }) });
  await expect(row.getByText("Locked out", { exact: true })).toBeVisible();
  await row.getByRole("button", { name: "Clear lockout" }).click();
  await expect(row.getByText("Locked out", { exact: true })).toHaveCount(0);
  expect((await login(clientSecret)).tokenType).toBe("Bearer");
});
