import type { QueryClient } from "@tanstack/react-query";
import type { RouteObject } from "react-router";
import { lazyRouteError } from "@/components/errors/lazy-route-error";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";

/** The organisation's audit log; its page and queries load on demand, like every page's. */
export function auditLogRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.auditLog.path,
      handle: { crumb: () => ({ label: "Audit log", to: paths.auditLog.href() }) } satisfies RouteHandle,
      lazy: {
        Component: async () => (await import("./components/audit-log-page")).AuditLogPage,
        ErrorBoundary: lazyRouteError,
      },
      // A filter changes only the search params: nothing for the loader to do again, so the
      // address (and the page with it) follows each click at once.
      shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
      // Not awaited: the filters render at once and the list shows a skeleton until its first page
      // arrives. The project names the chips show load alongside.
      loader: async () => {
        const { auditQueries } = await import("./queries");
        void queryClient.prefetchQuery(auditQueries.projects());
        return null;
      },
    },
  ];
}
