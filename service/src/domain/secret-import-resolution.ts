import type { ImportedFolder, SecretDetail } from "@keyhold/contract";
import type { Kysely } from "kysely";
import { listFolderImports } from "../data/secret-imports.ts";
import type { Database } from "../db/schema.ts";
import type { Actor } from "./access-tokens.ts";
import type { FolderLookup } from "./secret-import-service.ts";

/** Imports of imports are followed this deep (Infisical's limit); a folder met twice on a chain is not followed again. */
export const MAX_IMPORT_DEPTH = 10;

/**
 * The secrets of one folder that the caller may see, values withheld where it may not read them
 * (the secrets core's permission-filtered read); undefined when the folder does not exist.
 */
export type FolderSecretsReader = (
  actor: Actor,
  projectId: string,
  environment: string,
  secretPath: string,
  options: { viewSecretValue: boolean },
) => Promise<readonly SecretDetail[] | undefined>;

export interface ImportResolutionDeps {
  db: Kysely<Database>;
  folders: FolderLookup;
  readFolderSecrets: FolderSecretsReader;
}

export interface ImportResolutionRequest {
  actor: Actor;
  projectId: string;
  /** The importing folder. */
  folderId: string;
  /** Its environment id and path, so a chain that comes back to it stops. */
  envId: string;
  secretPath: string;
  viewSecretValue: boolean;
}

/** A secret as an import provides it: Infisical sends no timestamps, path, reminder or tags here. */
export function toImportedSecret(secret: SecretDetail): ImportedFolder["secrets"][number] {
  return {
    id: secret.id,
    _id: secret._id,
    workspace: "",
    environment: secret.environment,
    version: secret.version,
    type: secret.type,
    secretKey: secret.secretKey,
    secretValue: secret.secretValue,
    secretComment: secret.secretComment,
    skipMultilineEncoding: secret.skipMultilineEncoding ?? false,
    isRotatedSecret: secret.isRotatedSecret ?? false,
    rotationId: secret.rotationId ?? null,
    secretValueHidden: secret.secretValueHidden,
    secretMetadata: secret.secretMetadata ?? [],
  };
}

/**
 * The secrets a folder's imports provide, one entry per import in position order, each followed by
 * the entries of its source's own imports (depth first, at most ten levels, cycles cut). Only
 * shared secrets, and only those the caller may see; an import whose source folder does not exist
 * (yet) provides nothing. Reading a key, the folder's own secret wins, then the last entry.
 */
export async function resolveImportedSecrets(
  { db, folders, readFolderSecrets }: ImportResolutionDeps,
  request: ImportResolutionRequest,
): Promise<ImportedFolder[]> {
  const entries: ImportedFolder[] = [];
  const visit = async (folderId: string, chain: ReadonlySet<string>, depth: number): Promise<void> => {
    for (const row of await listFolderImports(db, folderId)) {
      const key = `${row.import_env_id}\u0000${row.import_path}`;
      if (chain.has(key)) continue;
      const source = await folders.find(row.import_env_id, row.import_path);
      const secrets = source
        ? await readFolderSecrets(request.actor, request.projectId, row.env_slug, row.import_path, {
            viewSecretValue: request.viewSecretValue,
          })
        : undefined;
      entries.push({
        secretPath: row.import_path,
        environment: row.env_slug,
        environmentInfo: { id: row.import_env_id, name: row.env_name, slug: row.env_slug },
        ...(source && { folderId: source.id }),
        secrets: (secrets ?? []).filter((s) => s.type === "shared").map(toImportedSecret),
      });
      if (source && depth + 1 < MAX_IMPORT_DEPTH) await visit(source.id, new Set([...chain, key]), depth + 1);
    }
  };
  await visit(request.folderId, new Set([`${request.envId}\u0000${request.secretPath}`]), 0);
  return entries;
}
