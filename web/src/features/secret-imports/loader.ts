import type { QueryClient } from "@tanstack/react-query";
import type { LoaderFunctionArgs } from "react-router";
import { projectAbilityQuery } from "@/hooks/use-project-ability";
import { normalisePath } from "./import-form";
import { secretImportQueries } from "./queries";

/**
 * Starts the page's reads without waiting for them: the header renders at once, the folder's
 * list follows once the environments are known. A linked folder's list starts with the others.
 */
export function loadSecretImports(queryClient: QueryClient, { params, request }: LoaderFunctionArgs) {
  const projectId = params.projectId ?? "";
  void queryClient.prefetchQuery(secretImportQueries.environments(projectId));
  void queryClient.prefetchQuery(projectAbilityQuery(projectId));
  const search = new URL(request.url).searchParams;
  const environment = search.get("environment");
  if (environment) {
    const path = normalisePath(search.get("path") ?? "/") ?? "/";
    void queryClient.prefetchQuery(secretImportQueries.list({ projectId, environment, path }));
  }
  return null;
}
