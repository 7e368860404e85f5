import type { QueryClient } from "@tanstack/react-query";
import type { RouteObject } from "react-router";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";

/** The loader's queries are imported on demand, like the page: neither is part of the sign-in download. */
const queries = async () => (await import("./queries")).secretImportQueries;
const abilityQuery = async () => (await import("@/hooks/use-project-ability")).projectAbilityQuery;

/** The project's secret imports page, as a child of the project route. */
export function secretImportsRoute(queryClient: QueryClient): RouteObject {
  return {
    path: paths.project.secretImports.segment,
    lazy: { Component: async () => (await import("./components/secret-imports-page")).SecretImportsPage },
    handle: {
      crumb: ({ projectId = "" }) => ({ label: "Secret imports", to: paths.project.secretImports.href(projectId) }),
    } satisfies RouteHandle,
    // Not awaited: the header renders at once; the folder's list follows once the environments are known.
    loader: async ({ params }) => {
      const projectId = params.projectId ?? "";
      const [importQueries, projectAbilityQuery] = await Promise.all([queries(), abilityQuery()]);
      void queryClient.prefetchQuery(importQueries.environments(projectId));
      void queryClient.prefetchQuery(projectAbilityQuery(projectId));
      return null;
    },
  };
}
