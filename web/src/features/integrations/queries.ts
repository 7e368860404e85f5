import { queryOptions } from "@tanstack/react-query";
import { integrationsApi } from "./api";

export const integrationKeys = {
  all: ["integrations"] as const,
  list: (projectId: string) => [...integrationKeys.all, projectId, "list"] as const,
};

export const integrationQueries = {
  list: (projectId: string) =>
    queryOptions({
      queryKey: integrationKeys.list(projectId),
      queryFn: ({ signal }) => integrationsApi.list(projectId, signal),
    }),
};
