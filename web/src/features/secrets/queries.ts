import { queryOptions } from "@tanstack/react-query";
import { type SecretFolder, secretsApi } from "./api";
import { folderListing } from "./secret-rows";

export const secretKeys = {
  all: ["secrets"] as const,
  project: (projectId: string) => [...secretKeys.all, projectId] as const,
  environments: (projectId: string) => [...secretKeys.project(projectId), "environments"] as const,
  tags: (projectId: string) => [...secretKeys.project(projectId), "tags"] as const,
  /** Everything about one folder: its secrets, revealed values and subfolders. */
  folder: ({ projectId, environment, secretPath }: SecretFolder) =>
    [...secretKeys.project(projectId), environment, secretPath] as const,
  list: (folder: SecretFolder) => [...secretKeys.folder(folder), "list"] as const,
  value: (folder: SecretFolder, secretKey: string) => [...secretKeys.folder(folder), "value", secretKey] as const,
  folders: (folder: SecretFolder) => [...secretKeys.folder(folder), "folders"] as const,
};

export const secretQueries = {
  environments: (projectId: string) =>
    queryOptions({
      queryKey: secretKeys.environments(projectId),
      queryFn: ({ signal }) => secretsApi.environments(projectId, signal),
    }),
  /**
   * The folder's secrets and what its imports provide, without values, with the table's rows
   * and the lowercase index they are filtered by.
   */
  list: (folder: SecretFolder) =>
    queryOptions({
      queryKey: secretKeys.list(folder),
      queryFn: async ({ signal }) => folderListing(await secretsApi.list(folder, signal)),
    }),
  /**
   * One secret's value, read when a person reveals it. Dropped from the cache as soon as no row
   * shows it (gcTime 0), and always read afresh.
   */
  value: (folder: SecretFolder, secretKey: string) =>
    queryOptions({
      queryKey: secretKeys.value(folder, secretKey),
      queryFn: ({ signal }) => secretsApi.reveal(folder, secretKey, signal),
      gcTime: 0,
      staleTime: 0,
    }),
  folders: (folder: SecretFolder) =>
    queryOptions({
      queryKey: secretKeys.folders(folder),
      queryFn: ({ signal }) => secretsApi.folders(folder, signal),
    }),
  tags: (projectId: string) =>
    queryOptions({
      queryKey: secretKeys.tags(projectId),
      queryFn: ({ signal }) => secretsApi.tags(projectId, signal),
      retry: false,
    }),
};
