import { queryOptions } from "@tanstack/react-query";
import { identitiesApi } from "./api";

export const identityKeys = {
  all: ["identities"] as const,
  lists: () => [...identityKeys.all, "list"] as const,
  list: (orgId: string) => [...identityKeys.lists(), { orgId }] as const,
  details: () => [...identityKeys.all, "detail"] as const,
  detail: (identityId: string) => [...identityKeys.details(), identityId] as const,
};

export const identityQueries = {
  list: (orgId: string) =>
    queryOptions({
      queryKey: identityKeys.list(orgId),
      queryFn: ({ signal }) => identitiesApi.list(orgId, signal),
    }),
  detail: (identityId: string) =>
    queryOptions({
      queryKey: identityKeys.detail(identityId),
      queryFn: ({ signal }) => identitiesApi.get(identityId, signal),
    }),
};
