import type { QueryClient } from "@tanstack/react-query";
import type { RouteObject } from "react-router";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";

/** The project's integrations page, as a child of the project route; page and loader load on demand. */
export function integrationsRoute(queryClient: QueryClient): RouteObject {
  return {
    path: paths.project.integrations.segment,
    lazy: { Component: async () => (await import("./components/integrations-page")).IntegrationsPage },
    handle: {
      crumb: ({ projectId = "" }) => ({ label: "Integrations", to: paths.project.integrations.href(projectId) }),
    } satisfies RouteHandle,
    loader: async (args) => (await import("./loader")).loadIntegrations(queryClient, args),
  };
}
