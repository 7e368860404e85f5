import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { identitiesApi } from "./api";
import { type IdentitySearch, toSearchBody } from "./identity-search";

export const identityKeys = {
  all: ["identities"] as const,
  lists: () => [...identityKeys.all, "list"] as const,
  list: (search: IdentitySearch) => [...identityKeys.lists(), search] as const,
  named: (orgId: string, name: string) => [...identityKeys.lists(), "named", orgId, name.toLowerCase()] as const,
  details: () => [...identityKeys.all, "detail"] as const,
  detail: (identityId: string) => [...identityKeys.details(), identityId] as const,
  projectMemberships: (identityId: string) => [...identityKeys.detail(identityId), "project-memberships"] as const,
};

export const identityQueries = {
  /** One page of a search; while the next page loads, the previous one stays on screen. */
  list: (search: IdentitySearch) =>
    queryOptions({
      queryKey: identityKeys.list(search),
      queryFn: ({ signal }) => identitiesApi.search(toSearchBody(search), signal),
      placeholderData: keepPreviousData,
    }),
  /** The identities already called `name` (any creation, rename or deletion refreshes it). */
  named: (orgId: string, name: string) =>
    queryOptions({
      queryKey: identityKeys.named(orgId, name),
      queryFn: ({ signal }) => identitiesApi.named(orgId, name, signal),
      staleTime: 10_000,
    }),
  detail: (identityId: string) =>
    queryOptions({
      queryKey: identityKeys.detail(identityId),
      queryFn: ({ signal }) => identitiesApi.get(identityId, signal),
    }),
  projectMemberships: (identityId: string) =>
    queryOptions({
      queryKey: identityKeys.projectMemberships(identityId),
      queryFn: ({ signal }) => identitiesApi.projectMemberships(identityId, signal),
    }),
};
