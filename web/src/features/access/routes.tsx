import type { QueryClient } from "@tanstack/react-query";
import type { RouteObject } from "react-router";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";

/** The loader's queries are imported on demand, like the page: neither is part of the sign-in download. */
const queries = async () => (await import("./queries")).accessQueries;
// The permission model (CASL) comes with it: on demand too.
const abilityQuery = async () => (await import("@/hooks/use-project-ability")).projectAbilityQuery;

/** The project's access page, as a child of the project route. */
export function accessRoute(queryClient: QueryClient): RouteObject {
  return {
    path: paths.project.access.segment,
    lazy: { Component: async () => (await import("./components/access-page")).AccessPage },
    handle: {
      crumb: ({ projectId = "" }) => ({ label: "Access", to: paths.project.access.href(projectId) }),
    } satisfies RouteHandle,
    // Not awaited: the header and tabs render at once, each list shows a skeleton until it arrives.
    loader: async ({ params }) => {
      const projectId = params.projectId ?? "";
      const [accessQueries, projectAbilityQuery] = await Promise.all([queries(), abilityQuery()]);
      void queryClient.prefetchQuery(accessQueries.identities(projectId));
      void queryClient.prefetchQuery(accessQueries.roles(projectId));
      void queryClient.prefetchQuery(accessQueries.users(projectId));
      // The signed-in identity's own rules decide which controls are enabled.
      void queryClient.prefetchQuery(projectAbilityQuery(projectId));
      return null;
    },
  };
}
