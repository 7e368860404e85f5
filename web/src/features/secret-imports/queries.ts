import { queryOptions } from "@tanstack/react-query";
import { type ImportingFolder, projectEnvironments, secretImportsApi } from "./api";

export const secretImportKeys = {
  all: ["secret-imports"] as const,
  folder: ({ projectId, environment, path }: ImportingFolder) =>
    [...secretImportKeys.all, projectId, environment, path] as const,
  list: (folder: ImportingFolder) => [...secretImportKeys.folder(folder), "list"] as const,
  provided: (folder: ImportingFolder) => [...secretImportKeys.folder(folder), "provided"] as const,
  subFolders: (folder: ImportingFolder) => [...secretImportKeys.folder(folder), "sub-folders"] as const,
  environments: (projectId: string) => [...secretImportKeys.all, projectId, "environments"] as const,
};

export const secretImportQueries = {
  environments: (projectId: string) =>
    queryOptions({
      queryKey: secretImportKeys.environments(projectId),
      queryFn: ({ signal }) => projectEnvironments(projectId, signal),
    }),
  list: (folder: ImportingFolder) =>
    queryOptions({
      queryKey: secretImportKeys.list(folder),
      queryFn: ({ signal }) => secretImportsApi.list(folder, signal),
    }),
  /** Which keys each import provides (names only: values are never asked for). */
  provided: (folder: ImportingFolder) =>
    queryOptions({
      queryKey: secretImportKeys.provided(folder),
      queryFn: ({ signal }) => secretImportsApi.provided(folder, signal),
      retry: false,
    }),
  subFolders: (folder: ImportingFolder) =>
    queryOptions({
      queryKey: secretImportKeys.subFolders(folder),
      queryFn: ({ signal }) => secretImportsApi.subFolders(folder, signal),
      retry: false,
    }),
};
