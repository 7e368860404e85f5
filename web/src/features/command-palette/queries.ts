import { queryOptions } from "@tanstack/react-query";
import { type EnvironmentRef, paletteApi } from "./api";

/**
 * The palette's lists are read when it opens and kept briefly: opening it again a moment later
 * searches the same names without asking again.
 */
const staleTime = 30_000;

export const paletteKeys = {
  all: ["command-palette"] as const,
  projects: () => [...paletteKeys.all, "projects"] as const,
  identities: (orgId: string) => [...paletteKeys.all, "identities", orgId] as const,
  roles: (projectId: string) => [...paletteKeys.all, "roles", projectId] as const,
  folders: (env: EnvironmentRef) => [...paletteKeys.all, "folders", env.projectId, env.environment] as const,
  secretNames: (env: EnvironmentRef) => [...paletteKeys.all, "secret-names", env.projectId, env.environment] as const,
};

export const paletteQueries = {
  projects: () =>
    queryOptions({ queryKey: paletteKeys.projects(), queryFn: ({ signal }) => paletteApi.projects(signal), staleTime }),
  identities: (orgId: string) =>
    queryOptions({
      queryKey: paletteKeys.identities(orgId),
      queryFn: ({ signal }) => paletteApi.identities(orgId, signal),
      staleTime,
    }),
  roles: (projectId: string) =>
    queryOptions({
      queryKey: paletteKeys.roles(projectId),
      queryFn: ({ signal }) => paletteApi.roles(projectId, signal),
      staleTime,
    }),
  folders: (env: EnvironmentRef) =>
    queryOptions({
      queryKey: paletteKeys.folders(env),
      queryFn: ({ signal }) => paletteApi.folders(env, signal),
      staleTime,
    }),
  secretNames: (env: EnvironmentRef) =>
    queryOptions({
      queryKey: paletteKeys.secretNames(env),
      queryFn: ({ signal }) => paletteApi.secretNames(env, signal),
      staleTime,
    }),
};
