import { endpoints } from "@keyhold/contract";
import { queryOptions } from "@tanstack/react-query";
import { call } from "@/lib/api-client";

/*
 * What every permission preview reads, from the ordinary list endpoints (a live Infisical server
 * answers them too): the project's environments with all their folders, and a role's rules.
 */

const ep = {
  project: endpoints["projects.get"],
  folders: endpoints["folders.list"],
  role: endpoints["projectRoles.getBySlug"],
};

export const previewDataApi = {
  /** Each environment's slug and the full paths of all its folders ("/" is counted by the grid). */
  scope: async (projectId: string, signal?: AbortSignal) => {
    const { workspace } = await call(ep.project, { params: { workspaceId: projectId } }, { signal });
    return Promise.all(
      workspace.environments.map(async ({ slug }) => {
        const query = { workspaceId: projectId, environment: slug, path: "/", recursive: "true" } as const;
        const { folders } = await call(ep.folders, { query }, { signal });
        return { slug, folders: folders.map(({ name, relativePath }) => relativePath ?? `/${name}`) };
      }),
    );
  },

  role: async (projectId: string, roleSlug: string, signal?: AbortSignal) =>
    (await call(ep.role, { params: { projectId, roleSlug } }, { signal })).role,
};

const previewKeys = {
  all: ["permission-preview"] as const,
  scope: (projectId: string) => [...previewKeys.all, projectId, "scope"] as const,
  role: (projectId: string, roleSlug: string) => [...previewKeys.all, projectId, "role", roleSlug] as const,
};

export const previewDataQueries = {
  scope: (projectId: string) =>
    queryOptions({
      queryKey: previewKeys.scope(projectId),
      queryFn: ({ signal }) => previewDataApi.scope(projectId, signal),
      staleTime: 30_000,
    }),
  /** A role's rules as they are now: a preview compares against what the server holds. */
  role: (projectId: string, roleSlug: string) =>
    queryOptions({
      queryKey: previewKeys.role(projectId, roleSlug),
      queryFn: ({ signal }) => previewDataApi.role(projectId, roleSlug, signal),
      staleTime: 0,
    }),
};
