import type { ImportedFolder, SecretDetail } from "@keyhold/contract";
import type { Kysely } from "kysely";
import { listFolderImports } from "../data/secret-imports.ts";
import type { Database } from "../db/schema.ts";
import type { Actor } from "./access-tokens.ts";
import type { ProjectAccess } from "./project-permissions.ts";
import type { FolderLookup } from "./secret-import-service.ts";

/** Imports of imports are followed this deep (Infisical's limit); a folder met twice on a chain is not followed again. */
export const MAX_IMPORT_DEPTH = 10;

/**
 * The secrets of one folder that the caller may see, values hidden where it may not read them
 * (the secrets core's `readFolder`); undefined when the environment or folder does not exist.
 */
export type FolderSecretsReader = (
  actor: Actor,
  access: ProjectAccess,
  envSlug: string,
  secretPath: string,
  viewSecretValue: boolean,
) => Promise<SecretDetail[] | undefined>;

export interface ImportResolutionDeps {
  db: Kysely<Database>;
  folders: FolderLookup;
  readFolder: FolderSecretsReader;
}

export interface ImportResolutionRequest {
  actor: Actor;
  access: ProjectAccess;
  /** The importing folder, its environment id and its path (a chain that comes back to it stops). */
  folderId: string;
  envId: string;
  secretPath: string;
  viewSecretValue: boolean;
}

/** One import as resolved: where it reads, and the secrets (full records) the caller may see there. */
export interface ResolvedSource {
  secretPath: string;
  environment: { id: string; name: string; slug: string };
  folderId: string | undefined;
  secrets: SecretDetail[];
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

export function toImportedFolder(source: ResolvedSource): ImportedFolder {
  return {
    secretPath: source.secretPath,
    environment: source.environment.slug,
    environmentInfo: source.environment,
    ...(source.folderId !== undefined && { folderId: source.folderId }),
    secrets: source.secrets.map(toImportedSecret),
  };
}

/**
 * What a folder's imports provide, one entry per import in position order, each followed by the
 * entries of its source's own imports (depth first, at most ten levels, cycles cut). Only shared
 * secrets, and only those the caller may see; an import whose source folder does not exist (yet)
 * provides nothing. Reading a key, the folder's own secret wins, then the last entry that has it.
 */
export async function resolveImports(
  { db, folders, readFolder }: ImportResolutionDeps,
  request: ImportResolutionRequest,
): Promise<ResolvedSource[]> {
  const sources: ResolvedSource[] = [];
  const visit = async (folderId: string, chain: ReadonlySet<string>, depth: number): Promise<void> => {
    for (const row of await listFolderImports(db, folderId)) {
      const key = `${row.import_env_id}\u0000${row.import_path}`;
      if (chain.has(key)) continue;
      const source = await folders.find(row.import_env_id, row.import_path);
      const secrets = source
        ? await readFolder(request.actor, request.access, row.env_slug, row.import_path, request.viewSecretValue)
        : undefined;
      sources.push({
        secretPath: row.import_path,
        environment: { id: row.import_env_id, name: row.env_name, slug: row.env_slug },
        folderId: source?.id,
        secrets: (secrets ?? []).filter((s) => s.type === "shared"),
      });
      if (source && depth + 1 < MAX_IMPORT_DEPTH) await visit(source.id, new Set([...chain, key]), depth + 1);
    }
  };
  await visit(request.folderId, new Set([`${request.envId}\u0000${request.secretPath}`]), 0);
  return sources;
}

/** The secret an import provides under `secretKey`: the last import that has it wins. */
export function findInSources(sources: readonly ResolvedSource[], secretKey: string): SecretDetail | undefined {
  for (let i = sources.length - 1; i >= 0; i -= 1) {
    const found = sources[i]?.secrets.find((s) => s.secretKey === secretKey);
    if (found) return found;
  }
  return undefined;
}
