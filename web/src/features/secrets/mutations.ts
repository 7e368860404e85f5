import type { Tag } from "@keyhold/contract";
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { type ListedSecret, type NewSecret, type SecretFolder, secretsApi } from "./api";
import { secretKeys } from "./queries";
import { childPath } from "./secret-location";
import { type FolderListing, folderListing } from "./secret-rows";

/*
 * A folder may hold 10,000 secrets: reading the whole list again after each change would cost
 * far more than the change. Each hook puts its answer into the cached list itself (and the
 * list is read again only when it is next loaded after going stale). Toasts, closing dialogs
 * and focus belong to the call site.
 */

function patchList(
  queryClient: QueryClient,
  folder: SecretFolder,
  patch: (secrets: readonly ListedSecret[]) => readonly ListedSecret[],
) {
  queryClient.setQueryData<FolderListing>(secretKeys.list(folder), (current) =>
    current ? folderListing({ secrets: patch(current.secrets), imports: current.imports }) : current,
  );
}

export function useCreateSecret(folder: SecretFolder, tags: readonly Tag[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (secret: NewSecret) => secretsApi.create(folder, secret),
    onSuccess: ({ secretValue: _value, ...created }, { tagIds = [] }) => {
      const listed: ListedSecret = {
        ...created,
        secretPath: folder.secretPath,
        secretValueHidden: true,
        secretMetadata: [],
        tags: tags
          .filter((tag) => tagIds.includes(tag.id))
          .map((tag) => ({ id: tag.id, slug: tag.slug, name: tag.name ?? tag.slug, color: tag.color })),
      };
      patchList(queryClient, folder, (secrets) =>
        [...secrets, listed].sort((a, b) => a.secretKey.localeCompare(b.secretKey)),
      );
    },
  });
}

export function useCreateFolder(folder: SecretFolder) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => secretsApi.createFolder(folder, name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secretKeys.folders(folder) }),
  });
}

/** Deletes a folder of `folder` with everything inside it; what was read of those folders goes stale too. */
export function useDeleteFolder(folder: SecretFolder) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: { id: string; name: string }) => secretsApi.deleteFolder(folder, target.id),
    onSuccess: (_deleted, target) => {
      const gone = childPath(folder.secretPath, target.name);
      const inside = (path: unknown) => typeof path === "string" && (path === gone || path.startsWith(`${gone}/`));
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: secretKeys.folders(folder) }),
        queryClient.invalidateQueries({
          queryKey: secretKeys.project(folder.projectId),
          predicate: ({ queryKey }) => queryKey[2] === folder.environment && inside(queryKey[3]),
        }),
      ]);
    },
  });
}
