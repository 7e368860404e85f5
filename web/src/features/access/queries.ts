import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { accessApi } from "./api";

export const accessKeys = {
  all: ["access"] as const,
  project: (projectId: string) => [...accessKeys.all, projectId] as const,
  users: (projectId: string) => [...accessKeys.project(projectId), "users"] as const,
  identities: (projectId: string) => [...accessKeys.project(projectId), "identities"] as const,
  roles: (projectId: string) => [...accessKeys.project(projectId), "roles"] as const,
  privileges: (projectId: string) => [...accessKeys.project(projectId), "privileges"] as const,
  privilegeList: (projectId: string, identityId: string) =>
    [...accessKeys.privileges(projectId), "list", identityId] as const,
  privilege: (projectId: string, id: string) => [...accessKeys.privileges(projectId), "detail", id] as const,
  orgIdentities: (orgId: string, search: string) => [...accessKeys.all, "org-identities", orgId, search] as const,
};

export const accessQueries = {
  users: (projectId: string) =>
    queryOptions({
      queryKey: accessKeys.users(projectId),
      queryFn: ({ signal }) => accessApi.users(projectId, signal),
    }),
  identities: (projectId: string) =>
    queryOptions({
      queryKey: accessKeys.identities(projectId),
      queryFn: ({ signal }) => accessApi.identities(projectId, signal),
    }),
  roles: (projectId: string) =>
    queryOptions({
      queryKey: accessKeys.roles(projectId),
      queryFn: ({ signal }) => accessApi.roles(projectId, signal),
    }),
  privileges: (projectId: string, identityId: string) =>
    queryOptions({
      queryKey: accessKeys.privilegeList(projectId, identityId),
      queryFn: ({ signal }) => accessApi.privileges(projectId, identityId, signal),
    }),
  privilege: (projectId: string, id: string) =>
    queryOptions({
      queryKey: accessKeys.privilege(projectId, id),
      queryFn: ({ signal }) => accessApi.privilege(id, signal),
    }),
  orgIdentities: (orgId: string, search: string) =>
    queryOptions({
      queryKey: accessKeys.orgIdentities(orgId, search),
      queryFn: ({ signal }) => accessApi.orgIdentities(orgId, search, signal),
      // The list stays while the next search loads, so the picker does not flicker.
      placeholderData: keepPreviousData,
      staleTime: 10_000,
    }),
};
