import { endpoints } from "@keyhold/contract";
import { queryOptions } from "@tanstack/react-query";
import type { RemovedCount } from "@/components/ui/confirm-removal";
import { call } from "./api-client";

/** A folder of a project's environment, by path ("/" is the environment's root). */
export interface FolderRef {
  projectId: string;
  environment: string;
  secretPath: string;
}

/** What folders hold, at every depth below them: what deleting them takes along. */
export interface FolderContents {
  secrets: number;
  folders: number;
  imports: number;
}

/** The contents as counts for a delete's confirmation. */
export function contentCounts({ secrets, folders, imports }: FolderContents): RemovedCount[] {
  return [
    { count: secrets, one: "secret", many: "secrets" },
    { count: folders, one: "folder", many: "folders" },
    { count: imports, one: "import", many: "imports" },
  ];
}

interface ListedFolder {
  id: string;
  name: string;
  parentId: string | null;
  relativePath?: string | undefined;
}

/** The three reads counting needs, apart so that the counting itself can be tested. */
export interface ContentReader {
  /** How many secrets the folder and every folder below it hold. */
  secrets(folder: FolderRef, signal?: AbortSignal): Promise<number>;
  folders(folder: FolderRef, recursive: boolean, signal?: AbortSignal): Promise<ListedFolder[]>;
  /** How many imports the folder itself has. */
  imports(folder: FolderRef, signal?: AbortSignal): Promise<number>;
}

const childPath = (parent: string, name: string) => (parent === "/" ? `/${name}` : `${parent}/${name}`);

/** Each listed folder's path, from the parent links of a recursive list (direct children's parent is `base`'s). */
function pathsOf(base: string, listed: readonly ListedFolder[]): string[] {
  const byId = new Map(listed.map((folder) => [folder.id, folder]));
  const paths = new Map<string, string>();
  const pathOf = (folder: ListedFolder): string => {
    const known = paths.get(folder.id);
    if (known) return known;
    const parent = folder.parentId ? byId.get(folder.parentId) : undefined;
    const path = childPath(parent ? pathOf(parent) : base, folder.name);
    paths.set(folder.id, path);
    return path;
  };
  return listed.map(pathOf);
}

/**
 * The path of every folder below `folder`. A server that lists recursively marks each folder with
 * its relative path; one that does not (October 2024) answers with the children alone, and the
 * tree is walked a level at a time.
 */
async function descendantPaths(read: ContentReader, folder: FolderRef, signal?: AbortSignal): Promise<string[]> {
  const listed = await read.folders(folder, true, signal);
  if (listed.every((child) => child.relativePath !== undefined)) return pathsOf(folder.secretPath, listed);
  const paths: string[] = [];
  let level = listed.map((child) => childPath(folder.secretPath, child.name));
  while (level.length > 0) {
    paths.push(...level);
    const parents = level;
    const children = await Promise.all(
      parents.map((secretPath) => read.folders({ ...folder, secretPath }, false, signal)),
    );
    level = children.flatMap((list, index) => list.map((child) => childPath(parents[index] ?? "/", child.name)));
  }
  return paths;
}

/** Counts the secrets, folders and imports inside one folder, at every depth. */
export async function countFolderContents(
  read: ContentReader,
  folder: FolderRef,
  signal?: AbortSignal,
): Promise<FolderContents> {
  const [secrets, paths] = await Promise.all([read.secrets(folder, signal), descendantPaths(read, folder, signal)]);
  const imports = await Promise.all(
    [folder.secretPath, ...paths].map((secretPath) => read.imports({ ...folder, secretPath }, signal)),
  );
  return { secrets, folders: paths.length, imports: imports.reduce((sum, count) => sum + count, 0) };
}

const where = ({ projectId, environment }: FolderRef) => ({ workspaceId: projectId, environment });

/** The reads through the console's API: values withheld, as the secrets page reads them. */
const apiReader: ContentReader = {
  secrets: async (folder, signal) =>
    (
      await call(
        endpoints["secrets.list"],
        { query: { ...where(folder), secretPath: folder.secretPath, recursive: "true", viewSecretValue: "false" } },
        { signal },
      )
    ).secrets.length,
  folders: async (folder, recursive, signal) =>
    (
      await call(
        endpoints["folders.list"],
        { query: { ...where(folder), path: folder.secretPath, ...(recursive ? { recursive: "true" } : {}) } },
        { signal },
      )
    ).folders,
  imports: async (folder, signal) =>
    (await call(endpoints["secretImports.list"], { query: { ...where(folder), path: folder.secretPath } }, { signal }))
      .secretImports.length,
};

/**
 * What the given folders hold together (an environment is its root folder; a project, its
 * environments' roots). Read afresh whenever asked: counts shown before a delete must be current.
 */
export const folderContentsQuery = (folders: readonly FolderRef[], enabled = true) =>
  queryOptions({
    queryKey: ["folder-contents", folders] as const,
    queryFn: async ({ signal }) => {
      const each = await Promise.all(folders.map((folder) => countFolderContents(apiReader, folder, signal)));
      return each.reduce(
        (sum, next) => ({
          secrets: sum.secrets + next.secrets,
          folders: sum.folders + next.folders,
          imports: sum.imports + next.imports,
        }),
        { secrets: 0, folders: 0, imports: 0 },
      );
    },
    staleTime: 0,
    meta: { errorShownInPlace: true },
    enabled,
  });
