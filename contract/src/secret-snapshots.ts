import { z } from "zod";
import { queryWholeNumber, SecretPath, Timestamp } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";
import { SecretTagRefSchema } from "./secrets.ts";

/**
 * Point-in-time recovery. Every change to a folder (its secrets, sub-folders or imports) is kept
 * as a commit holding the folder's whole state at that point. Two generations of Infisical's API
 * read the same commits: the October 2024 snapshot routes (a snapshot is a commit) and the
 * mid-2026 commit routes under `/api/v1/pit`.
 */

// ---- October 2024: snapshots ----

export const SecretSnapshotSchema = z.object({
  id: z.string().describe("The snapshot (commit) id"),
  envId: z.string(),
  folderId: z.string().describe("The folder whose state the snapshot holds"),
  parentFolderId: z.string().nullable().describe("Null for an environment's root folder"),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type SecretSnapshot = z.infer<typeof SecretSnapshotSchema>;

/** One secret as a snapshot holds it: the version that was current when it was taken. */
export const SnapshotSecretVersionSchema = z.object({
  id: z.string().describe("The secret version's id"),
  version: z.number().int(),
  secretKey: z.string(),
  secretValue: z.string().describe("The value, or a placeholder when the caller may not read it"),
  secretComment: z.string(),
  skipMultilineEncoding: z.boolean().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  isRotatedSecret: z.boolean(),
  rotationId: z.string().nullable(),
  secretValueHidden: z.boolean(),
  secretId: z.string(),
  tags: z.array(SecretTagRefSchema),
});
export type SnapshotSecretVersion = z.infer<typeof SnapshotSecretVersionSchema>;

export const SecretSnapshotDetailSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  environment: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  secretVersions: z.array(SnapshotSecretVersionSchema),
  folderVersion: z
    .array(z.object({ id: z.string(), name: z.string() }))
    .describe("The sub-folders the folder held (their own state is in their own snapshots)"),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type SecretSnapshotDetail = z.infer<typeof SecretSnapshotDetailSchema>;

const SnapshotListQuery = z.object({
  environment: z.string().trim().min(1).describe("Environment slug"),
  path: SecretPath.describe("The folder's path (default /)"),
  offset: queryWholeNumber(0).default(0),
  limit: queryWholeNumber(1, 100).default(20),
});
const SnapshotCountQuery = SnapshotListQuery.pick({ environment: true, path: true });
const ProjectParams = z.object({ workspaceId: z.string().trim().min(1).describe("The project's id") });
const SnapshotParams = z.object({ secretSnapshotId: z.string().trim().min(1).describe("The snapshot's id") });

const read = { scope: "project", subject: "secret-rollback", action: "read" } as const;
const rollBack = { scope: "project", subject: "secret-rollback", action: "create" } as const;

// ---- mid-2026: folder commits ----

export const ActorMetadataSchema = z.object({ id: z.string().nullable(), name: z.string().nullable() });

export const FolderCommitSchema = z.object({
  id: z.string().describe("The commit's id"),
  folderId: z.string(),
  actorType: z.string().describe("identity or user"),
  actorMetadata: ActorMetadataSchema,
  message: z.string().nullable(),
  commitId: z.string().describe("The commit's number in its folder's history, as a string"),
  createdAt: Timestamp,
  envId: z.string(),
});
export type FolderCommit = z.infer<typeof FolderCommitSchema>;

/** A secret's content in a change: the value withheld (`isRedacted`) when the caller may not read it. */
export const CommitSecretVersionSchema = z.object({
  secretKey: z.string(),
  secretComment: z.string(),
  skipMultilineEncoding: z.boolean().nullable(),
  tags: z.array(z.string()).describe("Tag slugs"),
  metadata: z.array(z.object({ key: z.string(), value: z.string() })),
  secretValue: z.string(),
  isRedacted: z.boolean(),
  redactedAt: Timestamp.nullable(),
  redactedByUserId: z.string().nullable(),
});
export type CommitSecretVersion = z.infer<typeof CommitSecretVersionSchema>;

const ChangeType = z.enum(["add", "update", "delete"]);

/** One change of a commit: a secret, a sub-folder or an import added, changed or removed. */
export const CommitChangeSchema = z.object({
  id: z.string(),
  folderCommitId: z.string(),
  changeType: ChangeType,
  isUpdate: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  actorMetadata: ActorMetadataSchema,
  actorType: z.string(),
  message: z.string().nullable(),
  folderId: z.string(),
  resourceType: z.enum(["secret", "folder", "import"]),
  secretVersionId: z.string().optional(),
  secretKey: z.string().optional(),
  secretVersion: z.string().optional(),
  secretId: z.string().optional(),
  folderName: z.string().optional().describe("For a sub-folder change"),
  folderChangeId: z.string().optional(),
  importPath: z.string().optional().describe("For an import change: environment slug and path"),
  importEnv: z.string().optional(),
  versions: z
    .array(CommitSecretVersionSchema)
    .optional()
    .describe("The secret after the change (before, for a delete)"),
});
export type CommitChange = z.infer<typeof CommitChangeSchema>;

export const CommitWithChangesSchema = z.object({
  id: z.string(),
  commitId: z.string(),
  actorMetadata: ActorMetadataSchema,
  actorType: z.string(),
  message: z.string().nullable(),
  folderId: z.string(),
  envId: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  isLatest: z.boolean(),
  changes: z.array(CommitChangeSchema),
});

/** An item of a folder's state at a commit. */
export const FolderStateItemSchema = z.object({
  type: z.enum(["secret", "folder", "import"]),
  id: z.string(),
  versionId: z.string(),
  secretKey: z.string().optional(),
  secretVersion: z.number().int().optional(),
  folderName: z.string().optional(),
  importPath: z.string().optional(),
  importEnv: z.string().optional(),
});
export type FolderStateItem = z.infer<typeof FolderStateItemSchema>;

/** What a rollback to a commit would change, from the folder's current state. */
export const CompareChangeSchema = z.object({
  id: z.string(),
  versionId: z.string(),
  changeType: ChangeType,
  commitId: z.string(),
  fromVersion: z.union([z.number(), z.string()]).optional(),
  type: z.enum(["secret", "folder", "import"]),
  secretKey: z.string().optional(),
  secretVersion: z.union([z.number(), z.string()]).optional(),
  secretId: z.string().optional(),
  folderName: z.string().optional(),
  importPath: z.string().optional(),
  importEnv: z.string().optional(),
  versions: z
    .array(CommitSecretVersionSchema)
    .optional()
    .describe("For an update: the current content, then the content the rollback restores"),
});
export type CompareChange = z.infer<typeof CompareChangeSchema>;

export const CompareFolderSchema = z.object({
  folderId: z.string(),
  folderName: z.string(),
  folderPath: z.string(),
  changes: z.array(CompareChangeSchema),
});
export type CompareFolder = z.infer<typeof CompareFolderSchema>;

/**
 * Asking for changes without values (the console's history and preview) or for one secret's only
 * (a person revealing it). Servers that do not know these send every value readable; the console
 * drops what it did not ask for.
 */
const valueQuery = {
  viewSecretValue: z.stringbool().optional().describe("Default true; false withholds every value"),
  secretKey: z.string().trim().min(1).optional().describe("Only this secret's changes"),
};

const CommitParams = z.object({ commitId: z.string().trim().min(1).describe("The commit's id") });
const projectId = z.string().trim().min(1).describe("The project's id");
const commitRead = read;
const commitRollback = rollBack;

export const secretSnapshotEndpoints = [
  defineEndpoint({
    id: "secretSnapshots.list",
    method: "GET",
    path: "/api/v1/workspace/{workspaceId}/secret-snapshots",
    summary: "List a folder's snapshots, newest first",
    params: ProjectParams,
    query: SnapshotListQuery,
    response: z.object({ secretSnapshots: z.array(SecretSnapshotSchema) }),
    permission: read,
  }),
  defineEndpoint({
    id: "secretSnapshots.listV2",
    method: "GET",
    path: "/api/v1/projects/{workspaceId}/secret-snapshots",
    summary: "List a folder's snapshots, newest first (the newer path)",
    params: ProjectParams,
    query: SnapshotListQuery,
    response: z.object({ secretSnapshots: z.array(SecretSnapshotSchema) }),
    permission: read,
  }),
  defineEndpoint({
    id: "secretSnapshots.count",
    method: "GET",
    path: "/api/v1/workspace/{workspaceId}/secret-snapshots/count",
    summary: "Count a folder's snapshots",
    params: ProjectParams,
    query: SnapshotCountQuery,
    response: z.object({ count: z.number().int() }),
    permission: read,
  }),
  defineEndpoint({
    id: "secretSnapshots.countV2",
    method: "GET",
    path: "/api/v1/projects/{workspaceId}/secret-snapshots/count",
    summary: "Count a folder's snapshots (the newer path)",
    params: ProjectParams,
    query: SnapshotCountQuery,
    response: z.object({ count: z.number().int() }),
    permission: read,
  }),
  defineEndpoint({
    id: "secretSnapshots.get",
    method: "GET",
    path: "/api/v1/secret-snapshot/{secretSnapshotId}",
    summary: "Read a snapshot: the secret versions and sub-folders the folder held (values only where readable)",
    params: SnapshotParams,
    response: z.object({ secretSnapshot: SecretSnapshotDetailSchema }),
    permission: read,
  }),
  defineEndpoint({
    id: "secretSnapshots.rollback",
    method: "POST",
    path: "/api/v1/secret-snapshot/{secretSnapshotId}/rollback",
    summary:
      "Put the folder, its imports and its sub-folders back as the snapshot holds them; answers with the new snapshot",
    params: SnapshotParams,
    body: z.object({}).optional(),
    response: z.object({ secretSnapshot: SecretSnapshotSchema }),
    permission: rollBack,
  }),
  defineEndpoint({
    id: "pitCommits.list",
    method: "GET",
    path: "/api/v1/pit/commits",
    summary: "List a folder's commits",
    query: z.object({
      projectId,
      environment: z.string().trim().min(1).describe("Environment slug"),
      path: SecretPath.describe("The folder's path (default /)"),
      offset: queryWholeNumber(0).default(0),
      limit: queryWholeNumber(1, 100).default(20),
      search: z.string().trim().max(256).optional().describe("Matches the commit message"),
      sort: z.enum(["asc", "desc"]).default("desc"),
    }),
    response: z.object({ commits: z.array(FolderCommitSchema), total: z.number().int(), hasMore: z.boolean() }),
    permission: commitRead,
  }),
  defineEndpoint({
    id: "pitCommits.count",
    method: "GET",
    path: "/api/v1/pit/commits/count",
    summary: "Count a folder's commits",
    query: z.object({
      projectId,
      environment: z.string().trim().min(1),
      path: SecretPath,
    }),
    response: z.object({ count: z.number().int(), folderId: z.string() }),
    permission: commitRead,
  }),
  defineEndpoint({
    id: "pitCommits.changes",
    method: "GET",
    path: "/api/v1/pit/commits/{commitId}/changes",
    summary: "What one commit changed (values only where readable)",
    params: CommitParams,
    query: z.object({ projectId, ...valueQuery }),
    response: z.object({ changes: CommitWithChangesSchema }),
    permission: commitRead,
  }),
  defineEndpoint({
    id: "pitCommits.folderState",
    method: "GET",
    path: "/api/v1/pit/commits/{commitId}",
    summary: "The folder's state at a commit: its secrets (with their versions), sub-folders and imports",
    params: CommitParams,
    query: z.object({ projectId, folderId: z.string().trim().min(1) }),
    response: z.array(FolderStateItemSchema),
    permission: commitRead,
  }),
  defineEndpoint({
    id: "pitCommits.compare",
    method: "GET",
    path: "/api/v1/pit/commits/{commitId}/compare",
    summary: "What a rollback to this commit would change, folder by folder (values only where readable)",
    params: CommitParams,
    query: z.object({
      projectId,
      folderId: z.string().trim().min(1),
      environment: z.string().trim().min(1),
      secretPath: SecretPath,
      deepRollback: z.stringbool().optional().describe("Include sub-folders (default true)"),
      ...valueQuery,
    }),
    response: z.array(CompareFolderSchema),
    permission: commitRead,
  }),
  defineEndpoint({
    id: "pitCommits.revert",
    method: "POST",
    path: "/api/v1/pit/commits/{commitId}/revert",
    summary: "Undo one commit's changes (a new commit)",
    params: CommitParams,
    body: z.object({ projectId }),
    response: z.object({
      success: z.boolean(),
      message: z.string(),
      originalCommitId: z.string(),
      revertCommitId: z.string().optional().describe("The commit the revert made"),
      changesReverted: z.number().int().optional(),
    }),
    permission: commitRollback,
  }),
  defineEndpoint({
    id: "pitCommits.rollback",
    method: "POST",
    path: "/api/v1/pit/commits/{commitId}/rollback",
    summary: "Put the folder back as it was at a commit (a new commit that can itself be rolled back)",
    params: CommitParams,
    body: z.object({
      projectId,
      folderId: z.string().trim().min(1),
      environment: z.string().trim().min(1),
      deepRollback: z.boolean().default(false).describe("Also put back the sub-folders' contents"),
      message: z.string().trim().max(256).optional(),
    }),
    response: z.object({
      success: z.boolean(),
      secretChangesCount: z.number().int().optional(),
      folderChangesCount: z.number().int().optional(),
      totalChanges: z.number().int().optional(),
    }),
    permission: commitRollback,
  }),
] as const;
