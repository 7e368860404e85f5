import { useSuspenseQuery } from "@tanstack/react-query";
import { Menu } from "lucide-react";
import { lazy } from "react";
import { Navigate, Outlet, useLocation, useNavigation } from "react-router";
import { buttonVariants } from "@/components/ui/button";
import { AfterFirstPaint } from "@/components/layout/after-first-paint";
import { UnsavedChangesGuard } from "@/components/layout/unsaved-changes-guard";
import { CommandLauncher } from "@/features/command-palette/components/command-launcher";
import { Toaster } from "@/components/ui/toaster";
import { paths } from "@/config/paths";
import { useFollowServerFeatures } from "@/hooks/use-follow-server-features";
import { useTheme } from "@/hooks/use-theme";
import { sessionQueries } from "@/lib/session";
import { AccountBadge, accountOf, accountTriggerClasses } from "./account-badge";
import { Breadcrumbs } from "./breadcrumbs";
import { Sidebar } from "./sidebar";
import { themeOption } from "./theme-options";

// The top bar's menus are Radix dialogs and dropdowns, with their positioning code: they
// load once the page has first painted, not before it. Meanwhile look-alikes that do nothing
// (and that assistive technology does not see) hold their places, so nothing moves.
const MobileNav = lazy(async () => ({ default: (await import("./mobile-nav")).MobileNav }));
const ThemeMenu = lazy(async () => ({ default: (await import("./theme-menu")).ThemeMenu }));
const UserMenu = lazy(async () => ({ default: (await import("./user-menu")).UserMenu }));

const iconButton = buttonVariants({ variant: "ghost", size: "icon-sm" });

function ThemeMenuStandIn() {
  const [preference] = useTheme();
  const Icon = themeOption(preference).icon;
  return (
    <div aria-hidden className={iconButton}>
      <Icon />
    </div>
  );
}

/** The signed-in frame: sidebar, top bar with breadcrumbs and account, and the page. */
export function AppShell() {
  const navigation = useNavigation();
  const location = useLocation();
  const { data: session } = useSuspenseQuery(sessionQueries.current());
  const loading = navigation.state === "loading";
  useFollowServerFeatures();

  // The session ended (sign-out, or any request answered 401): sign in again, then come back.
  if (!session) return <Navigate to={paths.signIn.href(location.pathname + location.search)} replace />;

  return (
    <div className="flex min-h-dvh bg-background">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-card px-3 py-2 font-medium shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:ring-2 focus:ring-ring"
      >
        Skip to content
      </a>
      <Sidebar />
      {/* The top bar's sign-out asks about unsaved input too, so the guard holds it as well as the page. */}
      <UnsavedChangesGuard>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center justify-between gap-4 border-b border-border bg-background/90 px-4 backdrop-blur md:px-6">
            <div className="flex min-w-0 items-center gap-2">
              <AfterFirstPaint
                fallback={
                  <div aria-hidden className={`${iconButton} md:hidden`}>
                    <Menu />
                  </div>
                }
              >
                <MobileNav />
              </AfterFirstPaint>
              <Breadcrumbs />
            </div>
            <div className="flex items-center gap-1">
              <CommandLauncher />
              <AfterFirstPaint fallback={<ThemeMenuStandIn />}>
                <ThemeMenu />
              </AfterFirstPaint>
              <AfterFirstPaint
                fallback={
                  <div aria-hidden className={accountTriggerClasses}>
                    <AccountBadge {...accountOf(session)} />
                  </div>
                }
              >
                <UserMenu />
              </AfterFirstPaint>
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
      </UnsavedChangesGuard>
      {/* Toasts appear only in the signed-in console, so the toaster loads with it. */}
      <Toaster />
    </div>
  );
}
