import type { QueryClient } from "@tanstack/react-query";
import type { RouteObject } from "react-router";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";

/** The loader's queries are imported on demand, like the page: neither is part of the sign-in download. */
const queries = async () => (await import("./queries")).integrationQueries;
const abilityQuery = async () => (await import("@/hooks/use-project-ability")).projectAbilityQuery;

/** The project's integrations page, as a child of the project route. */
export function integrationsRoute(queryClient: QueryClient): RouteObject {
  return {
    path: paths.project.integrations.segment,
    lazy: { Component: async () => (await import("./components/integrations-page")).IntegrationsPage },
    handle: {
      crumb: ({ projectId = "" }) => ({ label: "Integrations", to: paths.project.integrations.href(projectId) }),
    } satisfies RouteHandle,
    // Not awaited: the header renders at once and the table shows a skeleton until the list arrives.
    loader: async ({ params }) => {
      const projectId = params.projectId ?? "";
      const [integrationQueries, projectAbilityQuery] = await Promise.all([queries(), abilityQuery()]);
      void queryClient.prefetchQuery(integrationQueries.list(projectId));
      void queryClient.prefetchQuery(projectAbilityQuery(projectId));
      return null;
    },
  };
}
