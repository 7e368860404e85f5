import type { QueryClient } from "@tanstack/react-query";
import { createBrowserRouter, redirect } from "react-router";
import { RouteError } from "@/components/errors/route-error";
import { AppLoading } from "@/components/layout/app-loading";
import { paths } from "@/config/paths";
import { authRoutes } from "@/features/auth/routes";
import { identityRoutes } from "@/features/identities/routes";
import { projectRoutes } from "@/features/projects/routes";
import { sessionQueries } from "@/lib/session";
import { AppShell } from "./app-shell";
import { NotFoundPage } from "./not-found-page";

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter([
    ...authRoutes(queryClient),
    {
      id: "signed-in",
      Component: AppShell,
      ErrorBoundary: RouteError,
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
        ...projectRoutes(),
        { path: "*", Component: NotFoundPage },
      ],
    },
  ]);
}

export type AppRouter = ReturnType<typeof createAppRouter>;
