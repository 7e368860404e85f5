import { endpoints } from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  list: endpoints["secretImports.list"],
  create: endpoints["secretImports.create"],
  update: endpoints["secretImports.update"],
  delete: endpoints["secretImports.delete"],
  secrets: endpoints["secrets.list"],
  folders: endpoints["folders.list"],
};

/** The folder whose imports are shown: a project, an environment (slug) and a path. */
export interface ImportingFolder {
  projectId: string;
  environment: string;
  path: string;
}

/** Where an import reads from. */
export interface ImportSource {
  environment: string;
  path: string;
}

const scope = ({ projectId, environment, path }: ImportingFolder) => ({ workspaceId: projectId, environment, path });

/** Typed calls for a folder's secret imports; each unwraps its response envelope once, here. */
export const secretImportsApi = {
  list: async (folder: ImportingFolder, signal?: AbortSignal) =>
    (await call(ep.list, { query: scope(folder) }, { signal })).secretImports,

  create: async (folder: ImportingFolder, source: ImportSource) =>
    (await call(ep.create, { body: { ...scope(folder), import: source } })).secretImport,

  /** Moves one import; the server shifts those in between. */
  move: async (folder: ImportingFolder, secretImportId: string, position: number) =>
    (await call(ep.update, { params: { secretImportId }, body: { ...scope(folder), import: { position } } }))
      .secretImport,

  /** The names of the folder's sub-folders, to move down the tree. */
  subFolders: async ({ projectId, environment, path }: ImportingFolder, signal?: AbortSignal) =>
    (await call(ep.folders, { query: { workspaceId: projectId, environment, path } }, { signal })).folders
      .map((f) => f.name)
      .sort((a, b) => a.localeCompare(b)),

  delete: async (folder: ImportingFolder, secretImportId: string) =>
    (await call(ep.delete, { params: { secretImportId }, body: scope(folder) })).secretImport,

  /**
   * The folder's own keys and, per import, the secrets it provides, from the secrets list with
   * imports included and values withheld: the page shows names only, so no value is sent here.
   */
  provided: async ({ projectId, environment, path }: ImportingFolder, signal?: AbortSignal) => {
    const query = {
      workspaceId: projectId,
      environment,
      secretPath: path,
      include_imports: "true",
      viewSecretValue: "false",
    };
    const answer = await call(ep.secrets, { query }, { signal });
    return { localKeys: answer.secrets.map((secret) => secret.secretKey), imports: answer.imports };
  },
};

/** The project's environments, for choosing the folder and an import's source. */
export async function projectEnvironments(projectId: string, signal?: AbortSignal) {
  const { workspace } = await call(endpoints["projects.get"], { params: { workspaceId: projectId } }, { signal });
  return workspace.environments;
}
