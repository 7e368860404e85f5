import type { AuditEventTable } from "./declarations.ts";
import { folderPathOf, projectEvent, projectIdOf } from "./event-helpers.ts";

const NO_VALUE = "answers names and ids, no secret value";

/**
 * A read secret's metadata as a mid-2026 get-secret event lists it (2026-06-more/069), without the
 * value of an entry stored encrypted.
 */
const metadataOf = (entries: readonly { key: string; value: string; isEncrypted?: boolean | undefined }[] = []) =>
  entries.map(({ key, value, isEncrypted }) => (isEncrypted ? { key, isEncrypted } : { key, value }));

type SecretWritten = { id: string; secretKey: string; version: number; workspace: string };
type Folder = { environment: string; secretPath: string };

/** create-secret, update-secret, delete-secret: the metadata a mid-2026 server records (2026-06-more/027). */
type ImportWritten = { id: string; folderId: string; importEnv: { slug: string }; importPath: string };

/** update-secret-import, delete-secret-import: the import as it now stands in its folder. */
function importChange(folder: { environment: string; path: string }, secretImport: ImportWritten) {
  return {
    secretImportId: secretImport.id,
    folderId: secretImport.folderId,
    environment: folder.environment,
    secretPath: folder.path,
    importFromEnvironment: secretImport.importEnv.slug,
    importFromSecretPath: secretImport.importPath,
  };
}

function secretChange(folder: Folder, secret: SecretWritten, tags?: readonly string[]) {
  return projectEvent(secret.workspace, {
    environment: folder.environment,
    secretPath: folder.secretPath,
    secretId: secret.id,
    secretKey: secret.secretKey,
    secretVersion: secret.version,
    ...(tags && { secretTags: tags }),
  });
}

/**
 * create-secrets, update-secrets, delete-secrets: one event per batch, listing each secret as a
 * mid-2026 server does (2026-06-more/129). The project comes from the secrets (a batch names it by
 * id or slug).
 */
function secretBatch(folder: Folder, secrets: readonly SecretWritten[], item: (s: SecretWritten) => object) {
  return projectEvent(secrets[0]?.workspace ?? null, {
    secrets: secrets.map((s) => ({ secretId: s.id, secretKey: s.secretKey, secretVersion: s.version, ...item(s) })),
    secretPath: folder.secretPath,
    environment: folder.environment,
  });
}

/**
 * get-secrets as a mid-2026 server records it, plus what the read answered where it was not the
 * values themselves (Keyhold's keys, present only then): values withheld, or digests of them.
 */
const secretList = {
  type: "get-secrets",
  event: async ({ query, actor, db, result }) =>
    projectEvent(result.secrets[0]?.workspace ?? (await projectIdOf(db, actor?.orgId, query)), {
      environment: query.environment,
      secretPath: query.secretPath,
      numberOfSecrets: result.secrets.length,
      ...(query.viewSecretValue === false && { viewSecretValue: false }),
      ...(query.includeValueDigests && { includeValueDigests: true }),
    }),
} satisfies AuditEventTable["secrets.list"];
const secretGet = {
  type: "get-secret",
  event: ({ query, result }) =>
    projectEvent(result.secret.workspace, {
      environment: query.environment ?? result.secret.environment,
      secretPath: result.secret.secretPath || query.secretPath,
      secretId: result.secret.id,
      secretKey: result.secret.secretKey,
      secretVersion: result.secret.version,
      secretMetadata: metadataOf(result.secret.secretMetadata),
    }),
} satisfies AuditEventTable["secrets.get"];
const secretCreate = {
  type: "create-secret",
  event: ({ body, result }) => secretChange(body, result.secret, body.tagIds ?? []),
} satisfies AuditEventTable["secrets.create"];
const secretUpdate = {
  type: "update-secret",
  event: ({ body, result }) => secretChange(body, result.secret, body.tagIds ?? []),
} satisfies AuditEventTable["secrets.update"];
const secretDelete = {
  type: "delete-secret",
  event: ({ body, result }) => secretChange(body, result.secret),
} satisfies AuditEventTable["secrets.delete"];
const batchCreate = {
  type: "create-secrets",
  event: ({ body, result }) => secretBatch(body, result.secrets, () => ({ secretTags: [] })),
} satisfies AuditEventTable["secrets.batchCreate"];
const batchUpdate = {
  type: "update-secrets",
  event: ({ body, result }) =>
    secretBatch(body, result.secrets, () => ({ secretPath: body.secretPath, secretTags: [] })),
} satisfies AuditEventTable["secrets.batchUpdate"];
const batchDelete = {
  type: "delete-secrets",
  event: ({ body, result }) => secretBatch(body, result.secrets, () => ({})),
} satisfies AuditEventTable["secrets.batchDelete"];

/** Secrets, their batches and versions, imports, folders, tags, snapshots and point-in-time commits. */
export const secretEvents = {
  "secrets.list": secretList,
  "secrets.listV4": secretList,
  "secrets.get": secretGet,
  "secrets.getV4": secretGet,
  "secrets.getById": {
    type: "get-secret",
    event: ({ result }) =>
      projectEvent(result.secret.workspace, {
        environment: result.secret.environment,
        secretPath: result.secret.secretPath,
        secretId: result.secret.id,
        secretKey: result.secret.secretKey,
        secretVersion: result.secret.version,
        secretMetadata: metadataOf(result.secret.secretMetadata),
      }),
  },
  "secrets.create": secretCreate,
  "secrets.createV4": secretCreate,
  "secrets.update": secretUpdate,
  "secrets.updateV4": secretUpdate,
  "secrets.delete": secretDelete,
  "secrets.deleteV4": secretDelete,
  "secrets.batchCreate": batchCreate,
  "secrets.batchCreateV4": batchCreate,
  "secrets.batchUpdate": batchUpdate,
  "secrets.batchUpdateV4": batchUpdate,
  "secrets.batchDelete": batchDelete,
  "secrets.batchDeleteV4": batchDelete,
  // Versions carry their values.
  "secretVersions.list": {
    type: "get-secret-versions",
    event: async ({ db, params, result }) => {
      const secret = await db
        .selectFrom("secrets")
        .select(["project_id", "key", "folder_id"])
        .where("id", "=", params.secretId)
        .executeTakeFirst();
      return projectEvent(secret?.project_id ?? result.secretVersions[0]?.workspace ?? null, {
        environment: result.secretVersions[0]?.environment ?? null,
        secretPath: secret ? await folderPathOf(db, secret.folder_id) : null,
        secretId: params.secretId,
        secretKey: secret?.key ?? result.secretVersions[0]?.secretKey ?? null,
        numberOfVersions: result.secretVersions.length,
      });
    },
  },

  "secretImports.list": {
    type: "get-secret-imports",
    event: async ({ actor, db, query, result }) =>
      projectEvent(await projectIdOf(db, actor?.orgId, query), {
        environment: query.environment,
        secretPath: query.path,
        numberOfImports: result.secretImports.length,
      }),
  },
  // The values the folder's imports provide.
  "secretImports.listSecrets": {
    type: "get-secrets",
    event: async ({ actor, db, query, result }) =>
      projectEvent(await projectIdOf(db, actor?.orgId, query), {
        environment: query.environment,
        secretPath: query.path,
        numberOfSecrets: result.secrets.reduce((sum, folder) => sum + folder.secrets.length, 0),
        imported: true,
      }),
  },
  "secretImports.create": {
    type: "create-secret-import",
    event: async ({ actor, db, body, result }) =>
      projectEvent(await projectIdOf(db, actor?.orgId, body), {
        secretImportId: result.secretImport.id,
        folderId: result.secretImport.folderId,
        environment: body.environment,
        secretPath: body.path,
        importFromEnvironment: body.import.environment,
        importFromSecretPath: body.import.path,
      }),
  },
  "secretImports.update": {
    type: "update-secret-import",
    event: async ({ actor, db, body, result }) =>
      projectEvent(await projectIdOf(db, actor?.orgId, body), {
        ...importChange(body, result.secretImport),
        position: result.secretImport.position,
      }),
  },
  "secretImports.delete": {
    type: "delete-secret-import",
    event: async ({ actor, db, body, result }) =>
      projectEvent(await projectIdOf(db, actor?.orgId, body), {
        ...importChange(body, result.secretImport),
      }),
  },

  "folders.list": { none: NO_VALUE },
  "folders.get": { none: NO_VALUE },
  "folders.create": {
    type: "create-folder",
    event: async ({ actor, db, body, result }) =>
      projectEvent(await projectIdOf(db, actor?.orgId, body), {
        environment: body.environment,
        folderId: result.folder.id,
        folderName: result.folder.name,
        folderPath: body.path ?? body.directory ?? "/",
        ...(result.folder.description && { description: result.folder.description }),
      }),
  },
  "folders.update": {
    type: "update-folder",
    event: async ({ actor, db, body, result }) =>
      projectEvent(await projectIdOf(db, actor?.orgId, body), {
        environment: body.environment,
        folderId: result.folder.id,
        newFolderName: result.folder.name,
        folderPath: body.path ?? body.directory ?? "/",
      }),
  },
  "folders.delete": {
    type: "delete-folder",
    event: async ({ actor, db, body, result }) =>
      projectEvent(await projectIdOf(db, actor?.orgId, body), {
        environment: body.environment,
        folderId: result.folder.id,
        folderName: result.folder.name,
        folderPath: body.path ?? body.directory ?? "/",
      }),
  },

  "tags.list": { none: NO_VALUE },
  "tags.create": {
    type: "create-tag",
    event: ({ params, result }) =>
      projectEvent(params.workspaceId, { tagId: result.workspaceTag.id, slug: result.workspaceTag.slug }),
  },
  "tags.delete": {
    type: "delete-tag",
    event: ({ params, result }) =>
      projectEvent(params.workspaceId, { tagId: result.workspaceTag.id, slug: result.workspaceTag.slug }),
  },
} satisfies Partial<AuditEventTable>;
