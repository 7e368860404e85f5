import type { QueryClient } from "@tanstack/react-query";
import type { LoaderFunctionArgs } from "react-router";
import { projectAbilityQuery } from "@/hooks/use-project-ability";
import { integrationQueries } from "./queries";

/** Starts the page's reads without waiting: the header renders at once, the table shows a skeleton until the list arrives. */
export function loadIntegrations(queryClient: QueryClient, { params }: LoaderFunctionArgs) {
  const projectId = params.projectId ?? "";
  void queryClient.prefetchQuery(integrationQueries.list(projectId));
  void queryClient.prefetchQuery(projectAbilityQuery(projectId));
  return null;
}
