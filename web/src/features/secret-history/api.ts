import {
  type CommitChange,
  type CompareFolder,
  endpoints,
  type FolderCommit,
  HIDDEN_SECRET_VALUE,
} from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  project: endpoints["projects.get"],
  commits: endpoints["pitCommits.list"],
  changes: endpoints["pitCommits.changes"],
  compare: endpoints["pitCommits.compare"],
  rollback: endpoints["pitCommits.rollback"],
  snapshots: endpoints["secretSnapshots.list"],
  rollbackSnapshot: endpoints["secretSnapshots.rollback"],
};

/** The folder whose history is shown: the project, the environment's slug and the folder's path. */
export interface HistoryFolder {
  projectId: string;
  environment: string;
  secretPath: string;
}

/** One change of a secret as the console holds it: never a value (a reveal reads one on its own). */
export interface SecretChange {
  changeType: CommitChange["changeType"];
  type: "secret" | "folder" | "import";
  /** The secret's key, the folder's name, or the import's path. */
  name: string;
  /** The folder (path) the change is in, for a preview that covers sub-folders. */
  folderPath: string;
  /** Whether the server said the caller may not read this value. */
  hidden: boolean;
}

export const HISTORY_PAGE_SIZE = 20;

const nameOf = (change: {
  secretKey?: string | undefined;
  folderName?: string | undefined;
  importPath?: string | undefined;
}) => change.secretKey ?? change.folderName ?? change.importPath ?? "";

/** Changes of a preview, values dropped (a server that ignores `viewSecretValue` may still send them). */
function previewChanges(folders: CompareFolder[]): SecretChange[] {
  return folders.flatMap((folder) =>
    folder.changes.map((c) => ({
      changeType: c.changeType,
      type: c.type,
      name: nameOf(c),
      folderPath: folder.folderPath,
      hidden: c.versions?.some((v) => v.isRedacted) ?? false,
    })),
  );
}

/**
 * Typed calls for a folder's history. Lists and previews ask for no values and drop any a server
 * sends anyway; `reveal` reads one secret's two values (now, and after the rollback) when a person
 * asks, and nothing else keeps them.
 */
export const historyApi = {
  environments: async (projectId: string, signal?: AbortSignal) =>
    (await call(ep.project, { params: { workspaceId: projectId } }, { signal })).workspace.environments,

  commits: async (folder: HistoryFolder, offset: number, signal?: AbortSignal) =>
    call(
      ep.commits,
      {
        query: {
          projectId: folder.projectId,
          environment: folder.environment,
          path: folder.secretPath,
          offset,
          limit: HISTORY_PAGE_SIZE,
        },
      },
      { signal },
    ),

  changes: async (projectId: string, commitId: string, signal?: AbortSignal): Promise<SecretChange[]> => {
    const { changes } = await call(
      ep.changes,
      { params: { commitId }, query: { projectId, viewSecretValue: "false" } },
      { signal },
    );
    return changes.changes.map((c) => ({
      changeType: c.changeType,
      type: c.resourceType,
      name: nameOf(c),
      folderPath: "",
      hidden: true,
    }));
  },

  preview: async (folder: HistoryFolder, commit: FolderCommit, signal?: AbortSignal) =>
    previewChanges(
      await call(
        ep.compare,
        {
          params: { commitId: commit.id },
          query: {
            projectId: folder.projectId,
            folderId: commit.folderId,
            environment: folder.environment,
            secretPath: folder.secretPath,
            viewSecretValue: "false",
          },
        },
        { signal },
      ),
    ),

  /** One secret's value now and after the rollback (undefined where there is none, or it is withheld). */
  reveal: async (folder: HistoryFolder, commit: FolderCommit, change: SecretChange) => {
    const folders = await call(ep.compare, {
      params: { commitId: commit.id },
      query: {
        projectId: folder.projectId,
        folderId: commit.folderId,
        environment: folder.environment,
        secretPath: folder.secretPath,
        secretKey: change.name,
      },
    });
    const found = folders
      .find((f) => f.folderPath === change.folderPath)
      ?.changes.find((c) => c.type === "secret" && c.secretKey === change.name);
    const shown = (v: { secretValue: string; isRedacted: boolean } | undefined) =>
      v && !v.isRedacted && v.secretValue !== HIDDEN_SECRET_VALUE ? v.secretValue : undefined;
    const versions = found?.versions ?? [];
    if (change.changeType === "update") return { now: shown(versions[0]), then: shown(versions[1]) };
    if (change.changeType === "delete") return { now: shown(versions[0]), then: undefined };
    return { now: undefined, then: shown(versions[0]) };
  },

  rollback: async (folder: HistoryFolder, commit: FolderCommit, message: string) =>
    call(ep.rollback, {
      params: { commitId: commit.id },
      body: {
        projectId: folder.projectId,
        folderId: commit.folderId,
        environment: folder.environment,
        deepRollback: true,
        message,
      },
    }),

  /** The older servers' history: snapshots (when they were taken; no author, no changes). */
  snapshots: async (folder: HistoryFolder, signal?: AbortSignal) =>
    (
      await call(
        ep.snapshots,
        {
          params: { workspaceId: folder.projectId },
          query: { environment: folder.environment, path: folder.secretPath, limit: 100 },
        },
        { signal },
      )
    ).secretSnapshots,

  rollbackSnapshot: async (snapshotId: string) =>
    (await call(ep.rollbackSnapshot, { params: { secretSnapshotId: snapshotId } })).secretSnapshot,
};
