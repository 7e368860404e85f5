import type { AuditEventTable } from "./declarations.ts";
import { projectEvent } from "./event-helpers.ts";

const snapshotList = { none: "answers snapshot ids and times, no secret value" } as const;

/**
 * Point-in-time recovery: the dashboard's one-commit save, the October 2024 snapshots and the
 * mid-2026 commits (Infisical's names and metadata keys, 2026-06-more/130).
 */
export const pitEvents = {
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
