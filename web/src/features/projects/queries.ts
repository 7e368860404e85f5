import { queryOptions } from "@tanstack/react-query";
import { projectsApi } from "./api";

export const projectKeys = {
  all: ["projects"] as const,
  lists: () => [...projectKeys.all, "list"] as const,
  details: () => [...projectKeys.all, "detail"] as const,
  detail: (projectId: string) => [...projectKeys.details(), projectId] as const,
  orgAuditRetention: () => [...projectKeys.all, "org-audit-retention"] as const,
};

export const projectQueries = {
  /** The organisation's default audit retention in days. */
  orgAuditRetention: () =>
    queryOptions({
      queryKey: projectKeys.orgAuditRetention(),
      queryFn: ({ signal }) => projectsApi.orgAuditRetention(signal),
      staleTime: 60_000,
      retry: false,
    }),
  list: () =>
    queryOptions({
      queryKey: projectKeys.lists(),
      queryFn: ({ signal }) => projectsApi.list(signal),
    }),
  detail: (projectId: string) =>
    queryOptions({
      queryKey: projectKeys.detail(projectId),
      queryFn: ({ signal }) => projectsApi.get(projectId, signal),
    }),
};
