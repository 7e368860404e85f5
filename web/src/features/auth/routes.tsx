import type { SignInOptions } from "@keyhold/contract";
import type { QueryClient } from "@tanstack/react-query";
import { type LoaderFunctionArgs, type RouteObject, redirect } from "react-router";
import { AppLoading } from "@/components/layout/app-loading";
import { DEFAULT_AFTER_SIGN_IN, paths } from "@/config/paths";
import { safeReturnPath } from "@/lib/safe-redirect";
import { sessionQueries } from "@/lib/session";
import { authApi } from "./api";
import { SignInError } from "./components/sign-in-error";
import { SignInPage } from "./components/sign-in-page";

/**
 * Someone already signed in goes straight to where they were heading; anyone else gets the
 * sign-in options. Those are read beside the session check, and kept as the route's data rather
 * than in the query cache: they carry a failure message the BFF tells once, which a cached copy
 * would show again (or a refetch would lose).
 */
export function signInLoader(queryClient: QueryClient) {
  return async ({ request }: LoaderFunctionArgs): Promise<SignInOptions> => {
    const options = authApi.signInOptions(request.signal);
    // Read below, unless a session sends the browser on first; not an unhandled rejection then.
    options.catch(() => undefined);
    const session = await queryClient.ensureQueryData(sessionQueries.current());
    if (session) {
      const next = new URL(request.url).searchParams.get("next");
      throw redirect(safeReturnPath(next, DEFAULT_AFTER_SIGN_IN));
    }
    return options;
  };
}

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
      loader: signInLoader(queryClient),
      // Read once per visit: a change of `next` or `sso` alone does not ask the BFF again.
      shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
    },
  ];
}
