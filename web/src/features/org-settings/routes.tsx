import type { QueryClient } from "@tanstack/react-query";
import type { RouteObject } from "react-router";
import { lazyRouteError } from "@/components/errors/lazy-route-error";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";
import { sessionQueries } from "@/lib/session";

/** The loaders' queries are imported on demand, like the page: none is part of the sign-in download. */
const queries = async () => (await import("./queries")).auditSettingsQueries;

export function orgSettingsRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.orgSettings.path,
      handle: { crumb: () => ({ label: "Settings", to: paths.orgSettings.href() }) } satisfies RouteHandle,
      lazy: {
        Component: async () => (await import("./components/org-settings-page")).OrgSettingsPage,
        ErrorBoundary: lazyRouteError,
      },
      // Not awaited: the page renders at once and each section shows a skeleton until its data arrives.
      // Only an admin's page reads them (the others are told why they cannot use it).
      loader: async () => {
        const [session, settingsQueries] = await Promise.all([
          queryClient.ensureQueryData(sessionQueries.current()),
          queries(),
        ]);
        if (session?.identity.role === "admin") {
          void queryClient.prefetchQuery(settingsQueries.retention());
          void queryClient.prefetchQuery(settingsQueries.projects());
          void queryClient.prefetchQuery(settingsQueries.streamList());
        }
        return null;
      },
    },
  ];
}
