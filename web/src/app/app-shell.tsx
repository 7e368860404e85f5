import { Outlet, useNavigation } from "react-router";
import { Breadcrumbs } from "./breadcrumbs";
import { Sidebar } from "./sidebar";
import { ThemeMenu } from "./theme-menu";
import { UserMenu } from "./user-menu";

/** The signed-in frame: sidebar, top bar with breadcrumbs and account, and the page. */
export function AppShell() {
  const navigation = useNavigation();
  const loading = navigation.state === "loading";

  return (
    <div className="flex min-h-dvh bg-background">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-card px-3 py-2 font-medium shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:ring-2 focus:ring-ring"
      >
        Skip to content
      </a>
      <Sidebar />
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center justify-between gap-4 border-b border-border bg-background/90 px-6 backdrop-blur">
          <Breadcrumbs />
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
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-6 py-8 outline-none">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
