import type { RouteObject } from "react-router";
import { lazyRouteError } from "@/components/errors/lazy-route-error";
import { AppLoading } from "@/components/layout/app-loading";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";

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

/** The test window's landing page: a window of its own, outside the console's frame. */
export function ssoTestRoutes(): RouteObject[] {
  return [
    {
      path: paths.ssoTest.path,
      HydrateFallback: AppLoading,
      lazy: {
        Component: async () => (await import("./components/sso-test-page")).SsoTestPage,
        ErrorBoundary: lazyRouteError,
      },
    },
  ];
}
