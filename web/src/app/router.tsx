import type { QueryClient } from "@tanstack/react-query";
import { createBrowserRouter, redirect } from "react-router";
import { lazyRouteError } from "@/components/errors/lazy-route-error";
import { AppLoading } from "@/components/layout/app-loading";
import { paths } from "@/config/paths";
import { auditLogRoutes } from "@/features/audit-log/routes";
import { authRoutes } from "@/features/auth/routes";
import { expiryRadarRoutes } from "@/features/expiry-radar/routes";
import { identityRoutes } from "@/features/identities/routes";
import { orgSettingsRoutes } from "@/features/org-settings/routes";
import { projectRoutes } from "@/features/projects/routes";
import { ssoSetupRoutes, ssoTestRoutes } from "@/features/sso-setup/routes";
import { sessionQueries } from "@/lib/session";

/**
 * Route components and error elements are loaded on demand (`lazy`), so the sign-in page
 * does not download the signed-in console; loaders stay in the route table, so a route's
 * data and code load in parallel.
 */
export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter([
    ...authRoutes(queryClient),
    ...ssoTestRoutes(queryClient),
    {
      id: "signed-in",
      lazy: { Component: async () => (await import("./app-shell")).AppShell, ErrorBoundary: lazyRouteError },
      HydrateFallback: AppLoading,
      // Every page below needs a session; without one, sign in and come back here.
      loader: async ({ request }) => {
        const session = await queryClient.ensureQueryData(sessionQueries.current());
        if (!session) {
          const url = new URL(request.url);
          throw redirect(paths.signIn.href(url.pathname + url.search));
        }
        return null;
      },
      children: [
        { index: true, loader: () => redirect(paths.identities.href()) },
        ...identityRoutes(queryClient),
        ...projectRoutes(queryClient),
        ...orgSettingsRoutes(queryClient),
        ...ssoSetupRoutes(),
        ...auditLogRoutes(queryClient),
        ...expiryRadarRoutes(queryClient),
        { path: "*", lazy: { Component: async () => (await import("./not-found-page")).NotFoundPage } },
      ],
    },
  ]);
}

export type AppRouter = ReturnType<typeof createAppRouter>;
