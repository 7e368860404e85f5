import type { Actor } from "../domain/access-tokens.ts";
import type { SecretSnapshotService } from "../domain/secret-snapshot-service.ts";
import type { HandlerMap } from "./handler-types.ts";

type SnapshotListQuery = { environment: string; path: string; offset: number; limit: number };

type SnapshotEndpointId =
  | `secretSnapshots.${"list" | "listV2" | "count" | "countV2" | "get" | "rollback"}`
  | `pitCommits.${"list" | "count" | "changes" | "folderState" | "compare" | "revert" | "rollback"}`;

/** Snapshots (2024 paths, old and new project prefix share a handler) and commits (2026). */
export function secretSnapshotHandlers(snapshots: SecretSnapshotService): Pick<HandlerMap, SnapshotEndpointId> {
  // Typed by what they read, so each fits both paths (their contract rows share one schema).
  type ProjectInput<Q> = { actor: Actor; params: { workspaceId: string }; query: Q };
  const list = async ({ actor, params, query }: ProjectInput<SnapshotListQuery>) => ({
    secretSnapshots: await snapshots.listSnapshots(actor, params.workspaceId, query),
  });
  const count = async ({ actor, params, query }: ProjectInput<{ environment: string; path: string }>) => ({
    count: await snapshots.countSnapshots(actor, params.workspaceId, query),
  });
  return {
    "secretSnapshots.list": list,
    "secretSnapshots.listV2": list,
    "secretSnapshots.count": count,
    "secretSnapshots.countV2": count,
    "secretSnapshots.get": async ({ actor, params }) => ({
      secretSnapshot: await snapshots.getSnapshot(actor, params.secretSnapshotId),
    }),
    "secretSnapshots.rollback": async ({ actor, params }) => ({
      secretSnapshot: await snapshots.rollbackSnapshot(actor, params.secretSnapshotId),
    }),
    "pitCommits.list": async ({ actor, query }) => snapshots.listCommits(actor, query),
    "pitCommits.count": async ({ actor, query }) => snapshots.countCommits(actor, query),
    "pitCommits.changes": async ({ actor, params, query }) => ({
      changes: await snapshots.commitChanges(actor, params.commitId, query),
    }),
    "pitCommits.folderState": async ({ actor, params, query }) => snapshots.folderState(actor, params.commitId, query),
    "pitCommits.compare": async ({ actor, params, query }) => snapshots.compare(actor, params.commitId, query),
    "pitCommits.revert": async ({ actor, params, body }) => snapshots.revert(actor, params.commitId, body.projectId),
    "pitCommits.rollback": async ({ actor, params, body }) => snapshots.rollbackCommit(actor, params.commitId, body),
  };
}
