import type { FolderCommit } from "@keyhold/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type HistoryFolder, historyApi } from "./api";

/**
 * A rollback changes the folder, its imports and its sub-folders: every cached view of the project
 * may be stale after it, so everything is read again (the history gets the rollback's own commit).
 */
function useRefreshAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

export function useRollback(folder: HistoryFolder) {
  const refresh = useRefreshAll();
  return useMutation({
    mutationFn: ({ commit, message }: { commit: FolderCommit; message: string }) =>
      historyApi.rollback(folder, commit, message),
    onSuccess: refresh,
  });
}

export function useRollbackSnapshot() {
  const refresh = useRefreshAll();
  return useMutation({
    mutationFn: (snapshotId: string) => historyApi.rollbackSnapshot(snapshotId),
    onSuccess: refresh,
  });
}
