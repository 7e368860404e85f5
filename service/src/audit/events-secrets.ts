import type { AuditEventTable } from "./declarations.ts";
import { projectEvent, projectIdOf } from "./event-helpers.ts";

const NO_VALUE = "answers names and ids, no secret value";

type SecretWritten = { id: string; secretKey: string; version: number; workspace: string };
type Folder = { environment: string; secretPath: string };

/** create-secret, update-secret, delete-secret: the metadata a mid-2026 server records (2026-06-more/027). */
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

const secretList = {
  type: "get-secrets",
  event: async ({ query, actor, db, result }) =>
    projectEvent(result.secrets[0]?.workspace ?? (await projectIdOf(db, actor?.orgId, query)), {
      environment: query.environment,
      secretPath: query.secretPath,
      numberOfSecrets: result.secrets.length,
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

const snapshotList = { none: "answers snapshot ids and times, no secret value" } as const;

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
  // The dashboard's save: one commit of creates, updates and deletes (Infisical's name for it).
  "pitBatch.commit": {
    type: "pit-process-new-commit-raw",
    event: ({ body, result }) =>
      projectEvent(body.projectId, {
        environment: body.environment,
        secretPath: body.secretPath,
        commitId: result.commit.id,
        message: body.message,
        created: result.secrets.created.map((s) => ({
          secretId: s.id,
          secretKey: s.secretKey,
          secretVersion: s.version,
        })),
        updated: result.secrets.updated.map((s) => ({
          secretId: s.id,
          secretKey: s.secretKey,
          secretVersion: s.version,
        })),
        deleted: result.secrets.deleted.map((s) => ({
          secretId: s.id,
          secretKey: s.secretKey,
          secretVersion: s.version,
        })),
      }),
  },
  // Versions carry their values.
  "secretVersions.list": {
    type: "get-secret-versions",
    event: async ({ db, params, result }) => {
      const secret = await db
        .selectFrom("secrets")
        .select(["project_id", "key"])
        .where("id", "=", params.secretId)
        .executeTakeFirst();
      return projectEvent(secret?.project_id ?? result.secretVersions[0]?.workspace ?? null, {
        secretId: params.secretId,
        secretKey: secret?.key ?? result.secretVersions[0]?.secretKey ?? null,
        environment: result.secretVersions[0]?.environment ?? null,
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
        secretImportId: result.secretImport.id,
        folderId: result.secretImport.folderId,
        environment: body.environment,
        secretPath: body.path,
        importFromEnvironment: result.secretImport.importEnv.slug,
        importFromSecretPath: result.secretImport.importPath,
        position: result.secretImport.position,
      }),
  },
  "secretImports.delete": {
    type: "delete-secret-import",
    event: async ({ actor, db, body, result }) =>
      projectEvent(await projectIdOf(db, actor?.orgId, body), {
        secretImportId: result.secretImport.id,
        folderId: result.secretImport.folderId,
        environment: body.environment,
        secretPath: body.path,
        importFromEnvironment: result.secretImport.importEnv.slug,
        importFromSecretPath: result.secretImport.importPath,
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

  "secretSnapshots.list": snapshotList,
  "secretSnapshots.listV2": snapshotList,
  "secretSnapshots.count": snapshotList,
  "secretSnapshots.countV2": snapshotList,
  // A snapshot carries the values its folder held.
  "secretSnapshots.get": {
    type: "get-secret-snapshot",
    event: ({ params, result }) =>
      projectEvent(result.secretSnapshot.projectId, {
        secretSnapshotId: params.secretSnapshotId,
        environment: result.secretSnapshot.environment.slug,
        numberOfSecrets: result.secretSnapshot.secretVersions.length,
      }),
  },
  // A snapshot is a commit: rolling back to it is a deep rollback to that commit.
  "secretSnapshots.rollback": {
    type: "pit-rollback-commit",
    event: async ({ db, params, result }) => {
      const folder = await db
        .selectFrom("secret_folders as f")
        .innerJoin("project_environments as e", "e.id", "f.env_id")
        .select(["e.project_id", "e.slug"])
        .where("f.id", "=", result.secretSnapshot.folderId)
        .executeTakeFirst();
      return projectEvent(folder?.project_id ?? null, {
        targetCommitId: params.secretSnapshotId,
        folderId: result.secretSnapshot.folderId,
        environment: folder?.slug ?? null,
        deepRollback: true,
      });
    },
  },

  // Counts and limits as strings, as a mid-2026 server records them (2026-06-more/130).
  "pitCommits.list": {
    type: "get-project-pit-commits",
    event: ({ query, result }) =>
      projectEvent(query.projectId, {
        environment: query.environment,
        path: query.path,
        offset: String(query.offset),
        limit: String(query.limit),
        sort: "desc",
        commitCount: String(result.total),
      }),
  },
  "pitCommits.count": {
    type: "get-project-pit-commit-count",
    event: ({ query, result }) =>
      projectEvent(query.projectId, {
        environment: query.environment,
        path: query.path,
        commitCount: String(result.count),
      }),
  },
  "pitCommits.changes": {
    type: "get-project-pit-commit-changes",
    event: ({ params, query, result }) =>
      projectEvent(query.projectId, {
        commitId: params.commitId,
        folderId: result.changes.folderId,
        changesCount: String(result.changes.changes.length),
      }),
  },
  "pitCommits.folderState": {
    type: "pit-get-folder-state",
    event: ({ params, query }) =>
      projectEvent(query.projectId, { commitId: params.commitId, folderId: query.folderId }),
  },
  "pitCommits.compare": {
    type: "pit-compare-folder-states",
    event: ({ params, query }) =>
      projectEvent(query.projectId, {
        targetCommitId: params.commitId,
        folderId: query.folderId,
        environment: query.environment,
      }),
  },
  "pitCommits.revert": {
    type: "pit-revert-commit",
    event: ({ params, body, result }) =>
      projectEvent(body.projectId, {
        commitId: params.commitId,
        revertCommitId: result.revertCommitId ?? null,
        changesReverted: String(result.changesReverted ?? 0),
      }),
  },
  "pitCommits.rollback": {
    type: "pit-rollback-commit",
    event: ({ params, body, result }) =>
      projectEvent(body.projectId, {
        targetCommitId: params.commitId,
        folderId: body.folderId,
        environment: body.environment,
        deepRollback: body.deepRollback,
        message: body.message ?? null,
        totalChanges: String(result.totalChanges ?? 0),
      }),
  },
} satisfies Partial<AuditEventTable>;
