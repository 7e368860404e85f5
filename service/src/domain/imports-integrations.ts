import type { Kysely } from "kysely";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import { createSealer } from "../lib/sealing.ts";
import { createIntegrationService } from "./integration-service.ts";
import type { ProjectPermissions } from "./project-permissions.ts";
import type { SecretCore } from "./secret-core.ts";
import { createImportExtensions } from "./secret-import-extensions.ts";
import { createSecretImportService, type FolderLookup } from "./secret-import-service.ts";
import { createReferenceExpansion, type ReferenceIssueLog } from "./secret-reference-expansion.ts";

export interface ImportsAndIntegrationsDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  projectPermissions: ProjectPermissions;
  rootKey: Buffer;
  secretCore: SecretCore;
  log: ReferenceIssueLog;
}

/**
 * Secret imports, reference expansion and integrations, built on the secrets core: imports and
 * references are registered as what the raw list and get add (`include_imports`,
 * `expandSecretReferences`), read through the core with the caller's own rights.
 */
export function createImportsAndIntegrations({
  db,
  dialect,
  projectPermissions,
  rootKey,
  secretCore,
  log,
}: ImportsAndIntegrationsDeps) {
  const { scopes, secrets } = secretCore;
  const folders: FolderLookup = { find: async (envId, secretPath) => (await scopes.treeOf(envId)).at(secretPath) };
  const expandReferences = createReferenceExpansion({ folderValues: secrets.folderValues, log });
  const secretImports = createSecretImportService({
    db,
    dialect,
    projectPermissions,
    folders,
    readFolder: secrets.readFolder,
    commits: secretCore.commits,
  });
  secrets.extend({
    ...createImportExtensions({ db, folders, readFolder: secrets.readFolder, expandReferences }),
    expandReferences: (context, list) =>
      expandReferences({ access: context.scope.access, viewSecretValue: context.viewSecretValue }, list),
  });
  const integrations = createIntegrationService({
    db,
    projectPermissions,
    sealer: createSealer(rootKey, "integration-credentials"),
    folderExists: async (_projectId, environmentId, secretPath) =>
      (await folders.find(environmentId, secretPath)) !== undefined,
  });
  return { secretImports, integrations };
}
