import type { FolderCommit } from "@keyhold/contract";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { HISTORY_PAGE_SIZE, type HistoryFolder, historyApi } from "./api";

export const historyKeys = {
  all: ["secret-history"] as const,
  folder: ({ projectId, environment, secretPath }: HistoryFolder) =>
    [...historyKeys.all, projectId, environment, secretPath] as const,
  commits: (folder: HistoryFolder) => [...historyKeys.folder(folder), "commits"] as const,
  changes: (folder: HistoryFolder, commitId: string) => [...historyKeys.folder(folder), "changes", commitId] as const,
  preview: (folder: HistoryFolder, commitId: string) => [...historyKeys.folder(folder), "preview", commitId] as const,
  snapshots: (folder: HistoryFolder) => [...historyKeys.folder(folder), "snapshots"] as const,
  environments: (projectId: string) => [...historyKeys.all, projectId, "environments"] as const,
};

export const historyQueries = {
  environments: (projectId: string) =>
    queryOptions({
      queryKey: historyKeys.environments(projectId),
      queryFn: ({ signal }) => historyApi.environments(projectId, signal),
    }),
  /** The folder's commits, newest first, a page at a time. */
  commits: (folder: HistoryFolder) =>
    infiniteQueryOptions({
      queryKey: historyKeys.commits(folder),
      queryFn: ({ pageParam, signal }) => historyApi.commits(folder, pageParam, signal),
      initialPageParam: 0,
      getNextPageParam: (last, pages) => (last.hasMore ? pages.length * HISTORY_PAGE_SIZE : undefined),
      retry: false,
    }),
  /** What one commit changed: names and kinds only. */
  changes: (folder: HistoryFolder, commitId: string) =>
    queryOptions({
      queryKey: historyKeys.changes(folder, commitId),
      queryFn: ({ signal }) => historyApi.changes(folder.projectId, commitId, signal),
      staleTime: Number.POSITIVE_INFINITY,
    }),
  /** What a rollback to the commit would change now: read afresh each time it is shown. */
  preview: (folder: HistoryFolder, commit: FolderCommit) =>
    // The commit is named in the key by its id, which is all that identifies it.
    // eslint-disable-next-line @tanstack/query/exhaustive-deps
    queryOptions({
      queryKey: historyKeys.preview(folder, commit.id),
      queryFn: ({ signal }) => historyApi.preview(folder, commit, signal),
      staleTime: 0,
    }),
  snapshots: (folder: HistoryFolder) =>
    queryOptions({
      queryKey: historyKeys.snapshots(folder),
      queryFn: ({ signal }) => historyApi.snapshots(folder, signal),
      retry: false,
    }),
};
