import { hashKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { type SecretChanges, type SecretFolder, secretsApi } from "../api";
import { secretKeys } from "../queries";
import { drawerApi } from "./api";
import { drawerKeys } from "./queries";

/*
 * Each hook owns the cache work for its change and returns the invalidation promise, so the
 * drawer stays pending until fresh data is in place. Toasts and closing belong to the call site.
 */

/** Saves changes to one secret (a restore is a save of an old value); the folder's list, values and versions follow. */
export function useUpdateSecret(folder: SecretFolder) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ secretKey, changes }: { secretKey: string; secretId: string; changes: SecretChanges }) =>
      secretsApi.update(folder, secretKey, changes),
    onSuccess: (_secret, { secretKey, secretId, changes }) => {
      // A renamed secret is no longer at its old name: reading it there again would only find nothing.
      const gone = changes.newSecretName === undefined ? undefined : hashKey(secretKeys.value(folder, secretKey));
      return Promise.all([
        queryClient.invalidateQueries({
          queryKey: secretKeys.folder(folder),
          predicate: (query) => query.queryHash !== gone,
        }),
        queryClient.invalidateQueries({ queryKey: drawerKeys.versions(folder.projectId, secretId) }),
      ]);
    },
  });
}

export function useCreateTag(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, color }: { slug: string; color: string }) => drawerApi.createTag(projectId, slug, color),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secretKeys.tags(projectId) }),
  });
}
