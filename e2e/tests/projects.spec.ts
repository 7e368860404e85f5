import { endpoints, type Project } from "@keyhold/contract";
import { ServiceError } from "../support/api.ts";
import { csrf, expect, test as base, uniqueName } from "../support/fixtures.ts";

/** A project created through the API (default environments) and deleted after the test. */
const test = base.extend<{ seededProject: Project }>({
  seededProject: async ({ service }, use) => {
    const { project } = await service(endpoints["projects.create"], {
      body: { projectName: uniqueName("e2e-project"), shouldCreateDefaultEnvs: true },
    });
    await use(project);
    const params = { workspaceId: project.id };
    try {
      await service(endpoints["projects.update"], { params, body: { hasDeleteProtection: false } });
      await service(endpoints["projects.delete"], { params });
    } catch (error) {
      // The test may have deleted it already; anything else is a real failure.
      if (!(error instanceof ServiceError && error.status === 404)) throw error;
    }
  },
});

const DEFAULT_ENVIRONMENTS = [
  ["Development", "dev"],
  ["Staging", "staging"],
  ["Production", "prod"],
] as const;

test("creates a project with the default environments and the slug it previewed", async ({
  signedIn: page,
  service,
}) => {
  const name = uniqueName("Created Project");
  await page.goto("/projects");
  await page.getByRole("button", { name: "Create project" }).first().click();

  const dialog = page.getByRole("dialog", { name: "Create project" });
  await dialog.getByLabel("Name").fill(name);
  const slugInput = dialog.getByLabel("Slug");
  await expect(slugInput).toHaveValue(new RegExp(`^${name.toLowerCase().replace(/ /g, "-")}-[a-z0-9]{4}$`));
  const slug = await slugInput.inputValue();
  await expect(dialog.getByRole("switch", { name: "Default environments" })).toBeChecked();
  await dialog.getByLabel("Description").fill("Made by the end-to-end suite");
  await dialog.getByRole("button", { name: "Create project" }).click();

  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const projectId = new URL(page.url()).pathname.split("/").pop() ?? "";
  try {
    const environments = page.getByRole("table", { name: "Environments" });
    for (const [envName, envSlug] of DEFAULT_ENVIRONMENTS) {
      await expect(environments.getByRole("row").filter({ hasText: envName })).toContainText(envSlug);
    }
    const { workspace } = await service(endpoints["projects.get"], { params: { workspaceId: projectId } });
    expect(workspace.slug).toBe(slug);
    expect(workspace.description).toBe("Made by the end-to-end suite");
    expect(workspace.environments.map((e) => e.slug)).toEqual(["dev", "staging", "prod"]);
  } finally {
    await service(endpoints["projects.delete"], { params: { workspaceId: projectId } });
  }
});

test("refuses a slug the server would refuse, with the reason on the field", async ({ signedIn: page }) => {
  await page.goto("/projects");
  await page.getByRole("button", { name: "Create project" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create project" });
  await dialog.getByLabel("Name").fill("Anything");
  await dialog.getByLabel("Slug").fill("No_Good");
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(dialog.getByText("Slug may contain only lowercase letters, digits and single hyphens")).toBeVisible();
  await expect(dialog.getByLabel("Slug")).toHaveAttribute("aria-invalid", "true");
});

test("lists the caller's projects, filters them and opens one", async ({ signedIn: page, seededProject }) => {
  await page.goto("/projects");
  const table = page.getByRole("table", { name: "Projects" });
  const row = table.getByRole("row").filter({ hasText: seededProject.name });
  await expect(row).toContainText(seededProject.slug);
  await expect(row).toContainText("dev");

  await page.getByLabel("Filter projects").fill("no-project-is-called-this");
  await expect(page.getByText("No projects match")).toBeVisible();
  await page.getByRole("button", { name: "Clear filter" }).click();

  await table.getByRole("link", { name: seededProject.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: seededProject.name })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/projects/${seededProject.id}$`));
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview", exact: true }),
  ).toHaveAttribute("aria-current", "page");
});

test("refuses to delete a project while delete protection is on, and deletes it once off", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  const params = { workspaceId: seededProject.id };
  await page.goto(`/projects/${seededProject.id}`);
  const settings = page.getByRole("region", { name: "Settings" });

  await settings.getByRole("switch", { name: "Delete protection" }).click();
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Delete protection is on: turn it off above before deleting.")).toBeVisible();
  expect((await service(endpoints["projects.get"], { params })).workspace.hasDeleteProtection).toBe(true);

  // The console says why, and the server refuses all the same.
  await settings.getByRole("button", { name: "Delete project" }).click();
  const refused = page.getByRole("alertdialog", { name: "Delete project" });
  await expect(refused).toContainText("cannot be deleted while delete protection is on");
  await expect(refused.getByRole("button", { name: "Delete project" })).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(service(endpoints["projects.delete"], { params })).rejects.toMatchObject({ status: 403 });

  await settings.getByRole("switch", { name: "Delete protection" }).click();
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Delete protection is on")).toHaveCount(0);

  await settings.getByRole("button", { name: "Delete project" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete project" });
  await expect(confirm.getByRole("button", { name: "Delete project" })).toBeDisabled();
  await confirm.getByLabel(/Type .* to confirm/).fill(seededProject.slug);
  await confirm.getByRole("button", { name: "Delete project" }).click();

  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByRole("link", { name: seededProject.name })).toHaveCount(0);
  await expect(service(endpoints["projects.get"], { params })).rejects.toMatchObject({ status: 404 });
});

test("renames the project and changes its description", async ({ signedIn: page, service, seededProject }) => {
  const newName = uniqueName("Renamed");
  await page.goto(`/projects/${seededProject.id}`);
  const settings = page.getByRole("region", { name: "Settings" });
  await settings.getByLabel("Name").fill(newName);
  await settings.getByLabel("Description").fill("Now with a description");
  await settings.getByRole("button", { name: "Save settings" }).click();

  await expect(page.getByRole("heading", { level: 1, name: newName })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText(newName);
  const { workspace } = await service(endpoints["projects.get"], { params: { workspaceId: seededProject.id } });
  expect(workspace).toMatchObject({ name: newName, description: "Now with a description" });
});

test("shows the not-found page for a project that does not exist", async ({ signedIn: page }) => {
  await page.goto("/projects/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
});

test("a project viewer sees why it cannot change environments or settings", async ({
  page,
  service,
  session,
  seededProject,
}) => {
  const { identity } = await service(endpoints["identities.create"], {
    body: { name: uniqueName("e2e-viewer"), organizationId: session.organization.id, role: "member" },
  });
  try {
    const identityId = identity.id;
    await service(endpoints["tokenAuth.attach"], { params: { identityId }, body: {} });
    const { accessToken } = await service(endpoints["tokenAuth.createToken"], { params: { identityId }, body: {} });
    await service(endpoints["identityMemberships.add"], {
      params: { projectId: seededProject.id, identityId },
      body: { roles: [{ role: "viewer" }] },
    });
    const login = await page.request.post("/bff/login", { headers: csrf, data: { accessToken } });
    expect(login.status()).toBe(200);

    await page.goto(`/projects/${seededProject.id}`);
    await expect(page.getByRole("heading", { level: 1, name: seededProject.name })).toBeVisible();
    const add = page.getByRole("button", { name: "Add environment" });
    await expect(add).toHaveAttribute("aria-disabled", "true");
    await expect(add).toHaveAccessibleDescription(/do not include .*create.* on environments/i);
    await expect(page.getByRole("button", { name: "Rename Development" })).toHaveAttribute("aria-disabled", "true");
    await expect(page.getByRole("button", { name: "Delete project" })).toHaveAttribute("aria-disabled", "true");
    const settings = page.getByRole("region", { name: "Settings" });
    await expect(settings.getByLabel("Name")).toBeDisabled();
    await expect(settings.getByRole("note")).toContainText(/do not include .*edit.* on settings/i);

    // Clicking the inert control opens nothing.
    await add.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog")).toHaveCount(0);
  } finally {
    await service(endpoints["identities.delete"], { params: { identityId: identity.id } });
  }
});
