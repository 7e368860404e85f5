import { queryOptions } from "@tanstack/react-query";
import { rolesApi } from "./api";

export const roleKeys = {
  all: ["project-roles"] as const,
  lists: () => [...roleKeys.all, "list"] as const,
  list: (projectId: string) => [...roleKeys.lists(), projectId] as const,
  details: () => [...roleKeys.all, "detail"] as const,
  detail: (projectId: string, roleSlug: string) => [...roleKeys.details(), projectId, roleSlug] as const,
  holders: (projectId: string) => [...roleKeys.all, "holders", projectId] as const,
  preview: (projectId: string) => [...roleKeys.all, "preview", projectId] as const,
};

export const roleQueries = {
  list: (projectId: string) =>
    queryOptions({
      queryKey: roleKeys.list(projectId),
      queryFn: ({ signal }) => rolesApi.list(projectId, signal),
    }),
  detail: (projectId: string, roleSlug: string) =>
    queryOptions({
      queryKey: roleKeys.detail(projectId, roleSlug),
      queryFn: ({ signal }) => rolesApi.get(projectId, roleSlug, signal),
    }),
  /** Who holds which role, read afresh before a role is deleted. */
  holders: (projectId: string) =>
    queryOptions({
      queryKey: roleKeys.holders(projectId),
      queryFn: ({ signal }) => rolesApi.holders(projectId, signal),
      staleTime: 0,
      meta: { errorShownInPlace: true },
    }),
};
