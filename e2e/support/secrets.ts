import { endpoints, type Project } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import type { ServiceCall } from "./api.ts";
import { expect } from "./fixtures.ts";

/** Seeding, reading back and finding secrets, for the specs of the secrets area. */
export interface SecretSeed {
  key: string;
  value: string;
  environment?: string;
  secretPath?: string;
  comment?: string;
  tagIds?: string[];
}

export function seedSecret(service: ServiceCall, project: Project, seed: SecretSeed) {
  return service(endpoints["secrets.create"], {
    params: { secretName: seed.key },
    body: {
      workspaceId: project.id,
      environment: seed.environment ?? "dev",
      secretPath: seed.secretPath ?? "/",
      secretValue: seed.value,
      secretComment: seed.comment ?? "",
      ...(seed.tagIds ? { tagIds: seed.tagIds } : {}),
    },
  });
}

export function seedFolder(service: ServiceCall, project: Project, name: string, path = "/", environment = "dev") {
  return service(endpoints["folders.create"], { body: { workspaceId: project.id, environment, path, name } });
}

/** Folders given as [environment, parent path, name], created in order (parents first). */
export async function seedFolders(
  service: ServiceCall,
  project: Project,
  folders: readonly (readonly [string, string, string])[],
) {
  for (const [environment, path, name] of folders) await seedFolder(service, project, name, path, environment);
}

export async function readSecret(
  service: ServiceCall,
  project: Project,
  key: string,
  environment = "dev",
  secretPath = "/",
) {
  const { secret } = await service(endpoints["secrets.get"], {
    params: { secretName: key },
    query: { workspaceId: project.id, environment, secretPath },
  });
  return secret;
}

export async function openSecrets(page: Page, project: Project, search = "") {
  await page.goto(`/projects/${project.id}/secrets${search}`);
  await expect(page.getByRole("heading", { level: 1, name: "Secrets" })).toBeVisible();
}

export const secretsTable = (page: Page) => page.getByRole("table", { name: "Secrets" });

export const secretRow = (page: Page, key: string) =>
  secretsTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("button", { name: `Open ${key}`, exact: true }) });
