import type { QueryClient } from "@tanstack/react-query";
import type { RouteObject } from "react-router";
import { lazyRouteError } from "@/components/errors/lazy-route-error";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";
import { sessionQueries } from "@/lib/session";

/** The expiry radar: every token, client secret and temporary grant that ends, soonest first. */
export function expiryRadarRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.expiring.path,
      handle: { crumb: () => ({ label: "Expiring", to: paths.expiring.href() }) } satisfies RouteHandle,
      lazy: {
        Component: async () => (await import("./components/expiry-radar-page")).ExpiryRadarPage,
        ErrorBoundary: lazyRouteError,
      },
      // A filter changes only the search params: the list is already there.
      shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
      // Not awaited: the header and filters render at once, the list shows a skeleton until it arrives.
      loader: async () => {
        const [{ radarQueries }, session] = await Promise.all([
          import("./queries"),
          queryClient.ensureQueryData(sessionQueries.current()),
        ]);
        if (!session) return null;
        const privilegesV2 = session.server.features.find((f) => f.name === "privilegesV2") ?? { available: true };
        void queryClient.prefetchQuery(radarQueries.endings(session.organization.id, { privilegesV2 }));
        return null;
      },
    },
  ];
}
