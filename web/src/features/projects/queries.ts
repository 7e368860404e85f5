import { queryOptions } from "@tanstack/react-query";
import { projectsApi } from "./api";

export const projectKeys = {
  all: ["projects"] as const,
  lists: () => [...projectKeys.all, "list"] as const,
  details: () => [...projectKeys.all, "detail"] as const,
  detail: (projectId: string) => [...projectKeys.details(), projectId] as const,
};

export const projectQueries = {
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
