import type { QueryClient } from "@tanstack/react-query";
import { type RouteObject, redirect } from "react-router";
import { AppLoading } from "@/components/layout/app-loading";
import { DEFAULT_AFTER_SIGN_IN, paths } from "@/config/paths";
import { safeReturnPath } from "@/lib/safe-redirect";
import { sessionQueries } from "@/lib/session";
import { SignInError } from "./components/sign-in-error";
import { SignInPage } from "./components/sign-in-page";

export function authRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.signIn.path,
      // Part of the entry rather than lazy: the sign-in page is small, most visits start
      // here (or are sent here), and a separate chunk would be one more request before the
      // first screen. The signed-in console is what loads on demand.
      Component: SignInPage,
      ErrorBoundary: SignInError,
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
