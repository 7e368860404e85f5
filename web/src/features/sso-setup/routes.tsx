import type { QueryClient } from "@tanstack/react-query";
import { type RouteObject, redirect } from "react-router";
import { lazyRouteError } from "@/components/errors/lazy-route-error";
import { AppLoading } from "@/components/layout/app-loading";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";
import { sessionQueries } from "@/lib/session";

/** The set-up page, under the signed-in frame; its crumbs read Settings › Single sign-on. */
export function ssoSetupRoutes(): RouteObject[] {
  return [
    {
      id: "sso-setup-settings",
      handle: { crumb: () => ({ label: "Settings", to: paths.orgSettings.href() }) } satisfies RouteHandle,
      children: [
        {
          path: paths.ssoSetup.path,
          handle: { crumb: () => ({ label: "Single sign-on", to: paths.ssoSetup.href() }) } satisfies RouteHandle,
          lazy: {
            Component: async () => (await import("./components/sso-setup-page")).SsoSetupPage,
            ErrorBoundary: lazyRouteError,
          },
        },
      ],
    },
  ];
}

/**
 * The test window's landing page: a window of its own, outside the console's frame. It reads the
 * outcome with the admin's session, so without one it sends the window to sign in first (and takes
 * the early session check index.html started, as every page must).
 */
export function ssoTestRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.ssoTest.path,
      HydrateFallback: AppLoading,
      loader: async () => {
        const session = await queryClient.ensureQueryData(sessionQueries.current());
        if (!session) throw redirect(paths.signIn.href(paths.ssoTest.href()));
        return null;
      },
      lazy: {
        Component: async () => (await import("./components/sso-test-page")).SsoTestPage,
        ErrorBoundary: lazyRouteError,
      },
    },
  ];
}
