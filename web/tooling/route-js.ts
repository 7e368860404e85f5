import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * How much JavaScript a route of the console needs before it renders, measured from the
 * build output: the scripts index.html loads (its entry module and modulepreloads, and
 * any classic script), everything they import statically, and the modules the route
 * loads lazily with their static imports, following Vite's manifest. Sizes are gzip at
 * level 9, as the precompressed files are served. The build's budget check
 * (tooling/js-budget.ts) and the benchmark (bench/src/cases/console.ts) both use this module.
 */

/** A kilobyte here is 1,024 bytes, as the first-load figures in issue 6 were measured. */
export const KB = 1024;
/** The sign-in route's budget: gzip bytes of JavaScript before it renders. */
export const SIGN_IN_BUDGET_BYTES = 150 * KB;

/** One entry of Vite's `.vite/manifest.json` (the fields used here). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface ConsoleRoute {
  /** The URL pattern of the route (`:name` stands for one path segment); measured at the path itself. */
  path: string;
  /**
   * The modules React Router loads on demand before it renders the route: its and its
   * parents' `lazy` components, error elements and handles (it loads every lazy property of
   * the matched routes first). What a loader imports lazily is imported by its page too, so it
   * is counted with it. Source paths relative to web/; keep them in step with the routes: one
   * that is not a lazily loaded chunk of the build fails the measurement. index.html fetches
   * these early for a page opened at this path (tooling/route-preloads.ts).
   */
  routeModules: readonly string[];
  /** Components its pages mount with React.lazy just after their first paint (the table, the menus). */
  afterPaintModules: readonly string[];
}

const topBarMenus = ["src/app/mobile-nav.tsx", "src/app/theme-menu.tsx", "src/app/user-menu.tsx"];

export const consoleRoutes = {
  // The sign-in page and its error element are part of the entry (src/features/auth/routes.tsx).
  "sign-in": { path: "/sign-in", routeModules: [], afterPaintModules: [] },
  identities: {
    path: "/identities",
    routeModules: [
      "src/app/app-shell.tsx",
      "src/components/errors/route-error.tsx",
      "src/features/identities/components/identities-page.tsx",
    ],
    afterPaintModules: [
      ...topBarMenus,
      "src/features/identities/components/identities-table.tsx",
      "src/features/identities/components/create-identity-dialog.tsx",
    ],
  },
  identity: {
    path: "/identities/:identityId",
    routeModules: [
      "src/app/app-shell.tsx",
      "src/components/errors/route-error.tsx",
      "src/features/identities/components/identity-layout.tsx",
      "src/features/identities/components/identity-crumb.tsx",
      "src/features/identities/components/identity-overview.tsx",
    ],
    afterPaintModules: topBarMenus,
  },
} as const satisfies Record<string, ConsoleRoute>;
export type ConsoleRouteId = keyof typeof consoleRoutes;

/** Local script URLs in index.html: `<script src>` (module or classic) and `<link rel=modulepreload>`. */
export function scriptsOfHtml(html: string): string[] {
  const urls = new Set<string>();
  for (const [tag] of html.matchAll(/<(script|link)\b[^>]*>/gi)) {
    const isScript = /^<script/i.test(tag);
    if (!isScript && !/\brel=["']?modulepreload\b/i.test(tag)) continue;
    const url = /\b(?:src|href)=["']?([^"'\s>]+)/i.exec(tag)?.[1];
    if (url && url.startsWith("/") && !url.startsWith("//")) urls.add(url.slice(1));
  }
  return [...urls];
}

function staticClosure(manifest: Manifest, keys: readonly string[], into: Set<string>): void {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no entry ${key}`);
    into.add(chunk.file);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const key of keys) visit(key);
}

/** The built files (paths relative to dist/) a route needs before it renders. */
export function routeScriptFiles(manifest: Manifest, indexHtml: string, route: ConsoleRoute): string[] {
  const files = new Set<string>(scriptsOfHtml(indexHtml));
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry && chunk.file.endsWith(".js"));
  if (entries.length === 0) throw new Error("the manifest has no JavaScript entry");
  staticClosure(
    manifest,
    entries.map(([key]) => key),
    files,
  );
  const lazyModules = [...route.routeModules, ...route.afterPaintModules];
  for (const module of lazyModules) {
    if (!manifest[module]?.isDynamicEntry) {
      throw new Error(
        `${module} is not a lazily loaded chunk of the build; update consoleRoutes in tooling/route-js.ts`,
      );
    }
  }
  staticClosure(manifest, lazyModules, files);
  return [...files].sort();
}

export interface RouteJs {
  files: { file: string; gzipBytes: number }[];
  gzipBytes: number;
}

/** Reads the files of a route from a build (dist/) and adds up their gzip sizes. */
export async function measureRouteJs(distDir: string, route: ConsoleRoute): Promise<RouteJs> {
  const manifest = JSON.parse(await readFile(path.join(distDir, ".vite", "manifest.json"), "utf8")) as Manifest;
  const html = await readFile(path.join(distDir, "index.html"), "utf8");
  const files = await Promise.all(
    routeScriptFiles(manifest, html, route).map(async (file) => ({
      file,
      gzipBytes: gzipSync(await readFile(path.join(distDir, file)), { level: 9 }).length,
    })),
  );
  return { files, gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0) };
}

/** The verdict on the sign-in route: a message, and whether it is over budget. */
export function judgeSignIn(signIn: RouteJs, budgetBytes = SIGN_IN_BUDGET_BYTES): { ok: boolean; message: string } {
  const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
  const ok = signIn.gzipBytes <= budgetBytes;
  const head = `sign-in route JavaScript: ${kb(signIn.gzipBytes)} gzip in ${signIn.files.length} files (budget ${kb(budgetBytes)})`;
  if (ok) return { ok, message: head };
  const largest = [...signIn.files]
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .slice(0, 5)
    .map((f) => `  ${kb(f.gzipBytes).padStart(9)}  ${f.file}`);
  return {
    ok,
    message: `${head}: over budget by ${kb(signIn.gzipBytes - budgetBytes)}. Largest files:\n${largest.join("\n")}`,
  };
}
