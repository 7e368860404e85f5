import { endpoints, INTEGRATION_NOT_SYNCED_MESSAGE, type Project } from "@keyhold/contract";
import { ServiceError } from "../support/api.ts";
import { expect, test as base, uniqueName } from "../support/fixtures.ts";

/**
 * The integrations page against the real service. Integrations are created by a provider's own
 * flow, so the test seeds one through the API (credentials, then the integration) and checks
 * what the page shows and that deleting it in the browser deletes it in the service.
 */
const test = base.extend<{ seededProject: Project }>({
  seededProject: async ({ service }, use) => {
    const { project } = await service(endpoints["projects.create"], {
      body: { projectName: uniqueName("e2e-integrations"), shouldCreateDefaultEnvs: true },
    });
    await use(project);
    try {
      await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
    } catch (error) {
      if (!(error instanceof ServiceError && error.status === 404)) throw error;
    }
  },
});

test("explains where integrations come from when there are none", async ({ signedIn: page, seededProject }) => {
  await page.goto(`/projects/${seededProject.id}/integrations`);
  await expect(page.getByRole("heading", { level: 1, name: "Integrations" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No integrations in this project" })).toBeVisible();
  await expect(page.getByText(/provider's own sign-in flow/)).toBeVisible();
});

test("lists a seeded integration with its app, source, status and sync message, and deletes it after confirmation", async ({
  signedIn: page,
  service,
  seededProject,
}) => {
  const { integrationAuth } = await service(endpoints["integrationAuths.create"], {
    body: { workspaceId: seededProject.id, integration: "github", accessToken: uniqueName("ghp") },
  });
  await service(endpoints["integrations.create"], {
    body: {
      integrationAuthId: integrationAuth.id,
      sourceEnvironment: "staging",
      secretPath: "/",
      app: "acme/api",
      owner: "acme",
    },
  });

  await page.goto(`/projects/${seededProject.id}/integrations`);
  const table = page.getByRole("table", { name: "Integrations" });
  const row = table.getByRole("row").filter({ hasText: "acme/api" });
  await expect(row).toContainText("GitHub");
  await expect(row).toContainText("Staging");
  await expect(row.getByRole("cell").nth(1)).toContainText("/");
  await expect(row).toContainText("Not synced");
  await expect(row).toContainText(INTEGRATION_NOT_SYNCED_MESSAGE);

  await row.getByRole("button", { name: "Delete integration acme/api (GitHub)" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete integration" });
  await expect(confirm).toContainText("staging:/");
  await confirm.getByRole("button", { name: "Delete integration" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("heading", { name: "No integrations in this project" })).toBeVisible();

  const { integrations } = await service(endpoints["projects.listIntegrations"], {
    params: { workspaceId: seededProject.id },
  });
  expect(integrations).toEqual([]);
});
