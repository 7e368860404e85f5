import type { RouteObject } from "react-router";
import { lazyRouteError } from "@/components/errors/lazy-route-error";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";

/** The expiry radar: every token, client secret and temporary grant that ends, soonest first. */
export function expiryRadarRoutes(): RouteObject[] {
  return [
    {
      path: paths.expiring.path,
      handle: { crumb: () => ({ label: "Expiring", to: paths.expiring.href() }) } satisfies RouteHandle,
      lazy: {
        Component: async () => (await import("./components/expiry-radar-page")).ExpiryRadarPage,
        ErrorBoundary: lazyRouteError,
      },
    },
  ];
}
