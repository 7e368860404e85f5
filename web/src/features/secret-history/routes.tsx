import type { RouteObject } from "react-router";
import { lazyRouteError } from "@/components/errors/lazy-route-error";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";

/** A folder's history (commits, rollback preview, rollback), reached from the secrets page. */
export function secretHistoryRoute(): RouteObject {
  return {
    path: paths.project.secretHistory.segment,
    lazy: {
      Component: async () => (await import("./components/secret-history-page")).SecretHistoryPage,
      ErrorBoundary: lazyRouteError,
    },
    handle: {
      crumb: ({ projectId = "" }) => ({ label: "History", to: paths.project.secretHistory.href(projectId) }),
    } satisfies RouteHandle,
  };
}
