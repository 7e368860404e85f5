import type { QueryClient } from "@tanstack/react-query";
import { type RouteObject, redirect } from "react-router";
import { RouteError } from "@/components/errors/route-error";
import { AppLoading } from "@/components/layout/app-loading";
import { DEFAULT_AFTER_SIGN_IN, paths } from "@/config/paths";
import { safeReturnPath } from "@/lib/safe-redirect";
import { sessionQueries } from "@/lib/session";
import { SignInPage } from "./components/sign-in-page";

export function authRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.signIn.path,
      Component: SignInPage,
      ErrorBoundary: RouteError,
      HydrateFallback: AppLoading,
      // Someone already signed in goes straight to where they were heading.
      loader: async ({ request }) => {
        const session = await queryClient.ensureQueryData(sessionQueries.current());
        if (session) {
          const next = new URL(request.url).searchParams.get("next");
          throw redirect(safeReturnPath(next, DEFAULT_AFTER_SIGN_IN));
        }
        return null;
      },
    },
  ];
}
