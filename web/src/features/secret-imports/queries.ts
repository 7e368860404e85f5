import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { type ImportingFolder, projectEnvironments, secretImportsApi } from "./api";
import { folderExists, splitFolderPath } from "./source-folders";

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

/**
 * Whether a folder exists, read from its parent's sub-folders. When they cannot be listed the
 * answer is unknown, and the server decides as it would without the console.
 */
export async function sourceFolderExists(
  queryClient: QueryClient,
  projectId: string,
  environment: string,
  path: string,
): Promise<boolean | undefined> {
  const parent = splitFolderPath(path)?.parent;
  if (parent === undefined) return true;
  try {
    const names = await queryClient.fetchQuery(
      secretImportQueries.subFolders({ projectId, environment, path: parent }),
    );
    return folderExists(path, names);
  } catch {
    return undefined;
  }
}
