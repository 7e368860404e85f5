import type { SecretImport } from "@keyhold/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ImportingFolder, type ImportSource, secretImportsApi } from "./api";
import { moveTo } from "./positions";
import { secretImportKeys } from "./queries";

/*
 * Each hook owns the cache work for its change and returns the invalidation promise, so a
 * pending dialog stays pending until the fresh list is in place. Toasts and closing dialogs
 * belong to the call site. Every change refreshes both the list and the keys it provides.
 */

function useRefreshFolder(folder: ImportingFolder) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: secretImportKeys.folder(folder) });
}

export function useCreateImport(folder: ImportingFolder) {
  const refresh = useRefreshFolder(folder);
  return useMutation({
    mutationFn: (source: ImportSource) => secretImportsApi.create(folder, source),
    onSuccess: refresh,
  });
}

interface Move {
  id: string;
  position: number;
}

/**
 * Moves one import. The list shows the move at once and then the server's order, which is
 * what stays: a refused move (or another change meanwhile) puts the server's list back.
 */
export function useMoveImport(folder: ImportingFolder) {
  const queryClient = useQueryClient();
  const listKey = secretImportKeys.list(folder);
  return useMutation({
    // One move at a time, in the order asked: each is computed from the order the previous one left.
    scope: { id: listKey.join("/") },
    mutationFn: ({ id, position }: Move) => secretImportsApi.move(folder, id, position),
    onMutate: async ({ id, position }: Move) => {
      await queryClient.cancelQueries({ queryKey: listKey });
      const before = queryClient.getQueryData<SecretImport[]>(listKey);
      if (before) queryClient.setQueryData(listKey, moveTo(before, id, position));
      return { before };
    },
    onError: (_error, _move, context) => {
      if (context?.before) queryClient.setQueryData(listKey, context.before);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: secretImportKeys.folder(folder) }),
  });
}

export function useDeleteImport(folder: ImportingFolder) {
  const refresh = useRefreshFolder(folder);
  return useMutation({
    mutationFn: (secretImportId: string) => secretImportsApi.delete(folder, secretImportId),
    onSuccess: refresh,
  });
}
