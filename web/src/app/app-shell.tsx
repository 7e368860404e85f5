import { useSuspenseQuery } from "@tanstack/react-query";
import { Navigate, Outlet, useLocation, useNavigation } from "react-router";
import { Toaster } from "@/components/ui/toaster";
import { TooltipProvider } from "@/components/ui/tooltip";
import { paths } from "@/config/paths";
import { sessionQueries } from "@/lib/session";
import { Breadcrumbs } from "./breadcrumbs";
import { MobileNav } from "./mobile-nav";
import { Sidebar } from "./sidebar";
import { ThemeMenu } from "./theme-menu";
import { UserMenu } from "./user-menu";

/** The signed-in frame: sidebar, top bar with breadcrumbs and account, and the page. */
export function AppShell() {
  const navigation = useNavigation();
  const location = useLocation();
  const { data: session } = useSuspenseQuery(sessionQueries.current());
  const loading = navigation.state === "loading";

  // The session ended (sign-out, or any request answered 401): sign in again, then come back.
  if (!session) return <Navigate to={paths.signIn.href(location.pathname + location.search)} replace />;

  // Tooltips and toasts appear only in the signed-in console, so their provider (with
  // Radix's positioning code) and the toaster load with it rather than with the sign-in page.
  return (
    <TooltipProvider delayDuration={300}>
      <div className="flex min-h-dvh bg-background">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-card px-3 py-2 font-medium shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:ring-2 focus:ring-ring"
        >
          Skip to content
        </a>
        <Sidebar />
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center justify-between gap-4 border-b border-border bg-background/90 px-4 backdrop-blur md:px-6">
            <div className="flex min-w-0 items-center gap-2">
              <MobileNav />
              <Breadcrumbs />
            </div>
            <div className="flex items-center gap-1">
              <ThemeMenu />
              <UserMenu />
            </div>
            {loading ? (
              <div
                role="progressbar"
                aria-label="Loading page"
                className="absolute inset-x-0 -bottom-px h-0.5 overflow-hidden"
              >
                <div className="h-full w-1/3 bg-accent animate-progress" />
              </div>
            ) : null}
          </header>
          <main
            id="main"
            tabIndex={-1}
            className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 outline-none md:px-6 md:py-8"
          >
            <Outlet />
          </main>
        </div>
        <Toaster />
      </div>
    </TooltipProvider>
  );
}
