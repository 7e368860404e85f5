import type { QueryClient } from "@tanstack/react-query";
import type { RouteObject } from "react-router";
import { lazyRouteError } from "@/components/errors/lazy-route-error";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";

/** The project's secrets page, as a child of the project route; its code and its loader's load on demand. */
export function secretsRoute(queryClient: QueryClient): RouteObject {
  return {
    path: paths.project.secrets.segment,
    lazy: {
      Component: async () => (await import("./components/secrets-page")).SecretsPage,
      ErrorBoundary: lazyRouteError,
      // A search or tag in the URL narrows the table; the data stays as it is.
      shouldRevalidate: async () => {
        const { samePlace } = await import("./prefetch");
        return ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
          !samePlace(currentUrl, nextUrl) && defaultShouldRevalidate;
      },
    },
    handle: {
      crumb: ({ projectId = "" }) => ({ label: "Secrets", to: paths.project.secrets.href(projectId) }),
    } satisfies RouteHandle,
    loader: async (args) => (await import("./prefetch")).prefetchSecretsPage(queryClient, args),
  };
}

/** The folder's keys across the project's environments, beside the secrets page. */
export function secretsOverviewRoute(queryClient: QueryClient): RouteObject {
  return {
    path: paths.project.secretsOverview.segment,
    lazy: {
      Component: async () => (await import("./overview/components/overview-page")).OverviewPage,
      ErrorBoundary: lazyRouteError,
      // A search or filter in the URL narrows the table; the data stays as it is.
      shouldRevalidate: async () => {
        const { samePlace } = await import("./prefetch");
        return ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
          !samePlace(currentUrl, nextUrl) && defaultShouldRevalidate;
      },
    },
    handle: {
      crumb: ({ projectId = "" }) => ({ label: "Secrets overview", to: paths.project.secretsOverview.href(projectId) }),
    } satisfies RouteHandle,
    loader: async (args) => (await import("./overview/prefetch")).prefetchOverviewPage(queryClient, args),
  };
}
