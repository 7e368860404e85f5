import {
  type BodyOf,
  endpoints,
  type ListedSecret as ListedSecretWire,
  type ResolvedImport,
  type SecretDetail,
} from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  project: endpoints["projects.get"],
  list: endpoints["secrets.list"],
  get: endpoints["secrets.get"],
  create: endpoints["secrets.create"],
  update: endpoints["secrets.update"],
  delete: endpoints["secrets.delete"],
  createMany: endpoints["secrets.batchCreate"],
  updateMany: endpoints["secrets.batchUpdate"],
  deleteMany: endpoints["secrets.batchDelete"],
  commitChanges: endpoints["pitBatch.commit"],
  folders: endpoints["folders.list"],
  createFolder: endpoints["folders.create"],
  deleteFolder: endpoints["folders.delete"],
  tags: endpoints["tags.list"],
};

type CreateBody = BodyOf<typeof ep.create>;
type UpdateBody = BodyOf<typeof ep.update>;
type BatchCreateItem = BodyOf<typeof ep.createMany>["secrets"][number];
type BatchUpdateItem = BodyOf<typeof ep.updateMany>["secrets"][number];
/** A folder's changes saved together: creates, updates (renames) and deletes, each optional. */
export type FolderChanges = BodyOf<typeof ep.commitChanges>["changes"]["secrets"];

/** A secret as the table holds it: everything the list says about it, never its value. */
export type ListedSecret = Omit<SecretDetail, "secretValue">;

/** A secret one of the folder's imports provides, as the table holds it: never its value. */
export type ListedImportedSecret = Omit<ResolvedImport["secrets"][number], "secretValue">;

/** What one import of the folder provides: the folder it reads (environment slug and path) and its secrets. */
export interface ImportedSecrets {
  environment: string;
  secretPath: string;
  secrets: readonly ListedImportedSecret[];
}

/** A folder's own secrets, and what each of its imports provides in the server's order (position order). */
export interface FolderSecrets {
  secrets: readonly ListedSecret[];
  imports: readonly ImportedSecrets[];
}

/** Where a secret lives: the project, the environment's slug and the folder's path. */
export interface SecretFolder {
  projectId: string;
  environment: string;
  secretPath: string;
}

export type NewSecret = Pick<CreateBody, "secretValue" | "secretComment" | "tagIds"> & { secretKey: string };
export type SecretChanges = Omit<UpdateBody, "workspaceId" | "environment" | "secretPath" | "type">;

/** One secret of a batch create: its key, value and optional fields. */
export type NewSecretItem = Omit<BatchCreateItem, "type">;
/** One secret of a batch update: its current key and what changes (`newSecretName` renames it). */
export type SecretUpdateItem = Omit<BatchUpdateItem, "type">;

/**
 * A listed secret with the digest of its value, for comparing environments: `secretValueDigest`
 * is absent where the caller may not read the value or the server does not offer digests
 * (Infisical ignores the flag), which means "unknown", never "different".
 */
export type DigestedSecret = Omit<ListedSecretWire, "secretValue">;

const withoutValue = <T extends { secretValue: string }>({ secretValue: _dropped, ...rest }: T) => rest;

const where = ({ projectId, environment, secretPath }: SecretFolder) => ({
  workspaceId: projectId,
  environment,
  secretPath,
});

/**
 * Typed calls for the secrets page; each unwraps its response envelope once, here. The list
 * asks for values withheld, and drops whatever value a server sends anyway (an older one may
 * ignore the flag), its imports' too: values are read one at a time, when a person reveals or
 * copies one.
 */
export const secretsApi = {
  environments: async (projectId: string, signal?: AbortSignal) =>
    (await call(ep.project, { params: { workspaceId: projectId } }, { signal })).workspace.environments,

  list: async (folder: SecretFolder, signal?: AbortSignal): Promise<FolderSecrets> => {
    const query = { ...where(folder), viewSecretValue: "false", include_imports: "true" };
    const { secrets, imports = [] } = await call(ep.list, { query }, { signal });
    return {
      secrets: secrets.map(withoutValue),
      imports: imports.map(({ environment, secretPath, secrets: provided }) => ({
        environment,
        secretPath,
        secrets: provided.map(withoutValue),
      })),
    };
  },

  /** The folder's own secrets with value digests (values withheld), for comparing environments. */
  listWithDigests: async (folder: SecretFolder, signal?: AbortSignal): Promise<DigestedSecret[]> => {
    const query = { ...where(folder), viewSecretValue: "false", includeValueDigests: "true" };
    const { secrets } = await call(ep.list, { query }, { signal });
    return secrets.map(withoutValue);
  },

  /**
   * The folder's own secrets with their values, for a person's move or copy of some of them: the
   * caller keeps only those and drops them once written.
   */
  listWithValues: async (folder: SecretFolder, signal?: AbortSignal) =>
    (await call(ep.list, { query: { ...where(folder), viewSecretValue: "true" } }, { signal })).secrets,

  /** One secret with its value (unless the caller may not read it: then `secretValueHidden`). */
  reveal: async (folder: SecretFolder, secretKey: string, signal?: AbortSignal) =>
    (await call(ep.get, { params: { secretName: secretKey }, query: where(folder) }, { signal })).secret,

  create: async (folder: SecretFolder, { secretKey, ...fields }: NewSecret) =>
    (await call(ep.create, { params: { secretName: secretKey }, body: { ...where(folder), ...fields } })).secret,

  update: async (folder: SecretFolder, secretKey: string, changes: SecretChanges) =>
    (await call(ep.update, { params: { secretName: secretKey }, body: { ...where(folder), ...changes } })).secret,

  delete: async (folder: SecretFolder, secretKey: string) =>
    (await call(ep.delete, { params: { secretName: secretKey }, body: where(folder) })).secret,

  /** Creates many secrets in the folder in one request: all of them, or none. */
  createSecrets: async (folder: SecretFolder, items: readonly NewSecretItem[]) =>
    (await call(ep.createMany, { body: { ...where(folder), secrets: [...items] } })).secrets.map(withoutValue),

  /** Updates many secrets in one request, all or none; with `upsert`, missing keys are created. */
  updateSecrets: async (
    folder: SecretFolder,
    items: readonly SecretUpdateItem[],
    { upsert = false }: { upsert?: boolean } = {},
  ) =>
    (
      await call(ep.updateMany, {
        // Only upsert is named: the default mode is what a server that knows no modes does.
        body: { ...where(folder), ...(upsert && { mode: "upsert" as const }), secrets: [...items] },
      })
    ).secrets.map(withoutValue),

  /**
   * Saves a folder's creates, updates (renames) and deletes in one request, all or none, as one
   * entry of the folder's history with `message` (the server applies the deletes first, then the
   * updates, then the creates). A server without this endpoint answers 404; one that keeps it
   * for user sessions (Infisical, to identities) 403.
   */
  commitSecretChanges: async (
    { projectId, environment, secretPath }: SecretFolder,
    changes: FolderChanges,
    message: string,
  ) => {
    const { secrets } = await call(ep.commitChanges, {
      body: { projectId, environment, secretPath, message, changes: { secrets: changes } },
    });
    return {
      created: secrets.created.map(withoutValue),
      updated: secrets.updated.map(withoutValue),
      deleted: secrets.deleted.map(withoutValue),
    };
  },

  /** Deletes many secrets of the folder in one request: all of them, or none. */
  deleteSecrets: async (folder: SecretFolder, secretKeys: readonly string[]) =>
    (
      await call(ep.deleteMany, { body: { ...where(folder), secrets: secretKeys.map((secretKey) => ({ secretKey })) } })
    ).secrets.map(withoutValue),

  folders: async ({ projectId, environment, secretPath }: SecretFolder, signal?: AbortSignal) =>
    (await call(ep.folders, { query: { workspaceId: projectId, environment, path: secretPath } }, { signal })).folders,

  createFolder: async ({ projectId, environment, secretPath }: SecretFolder, name: string) =>
    (await call(ep.createFolder, { body: { workspaceId: projectId, environment, path: secretPath, name } })).folder,

  /** Deletes the folder `name` inside `secretPath`. */
  deleteFolder: async ({ projectId, environment, secretPath }: SecretFolder, folderId: string) =>
    (
      await call(ep.deleteFolder, {
        params: { folderId },
        body: { workspaceId: projectId, environment, path: secretPath },
      })
    ).folder,

  tags: async (projectId: string, signal?: AbortSignal) =>
    (await call(ep.tags, { params: { workspaceId: projectId } }, { signal })).workspaceTags,
};
