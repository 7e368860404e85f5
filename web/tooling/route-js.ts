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
/**
 * Issue 17's aim for every route's first load, in gzip bytes of JavaScript. React 19 with its
 * DOM renderer (67.5 KB gzip), React Router's data router (29.7 KB) and TanStack Query
 * (10.3 KB), which every route needs, come to 108.7 KB gzip together before any code of the
 * console, so no route reaches it; each route's own budget (`budgetKB`) is what holds.
 */
export const FIRST_LOAD_AIM_BYTES = 100 * KB;

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
  /**
   * The most JavaScript (gzip KB) its first load may download, counted as the browser does:
   * index.html's scripts and modulepreloads, the entry's imports, the route's preloaded modules and
   * what its pages load just after their first paint. The build fails past it (tooling/js-budget.ts).
   */
  budgetKB: number;
}

/** What the signed-in frame loads just after its first paint: the top bar's menus and the unsaved-changes question. */
const topBarMenus = [
  "src/app/mobile-nav.tsx",
  "src/app/theme-menu.tsx",
  "src/app/user-menu.tsx",
  "src/components/layout/unsaved-changes-dialogs.tsx",
];
/** The signed-in frame and the error element of the routes above every page. */
const signedIn = ["src/app/app-shell.tsx", "src/components/errors/route-error.tsx"];
/** A project's pages: the frame, the project's crumb and the permission model their loaders read. */
const inProject = [
  ...signedIn,
  "src/features/projects/components/project-crumb.tsx",
  // Imported by the ability query's fetch, which the loaders start: without it, a third round.
  "src/components/permissions/ability.ts",
];
const identityPage = [
  ...signedIn,
  "src/features/identities/components/identity-layout.tsx",
  "src/features/identities/components/identity-crumb.tsx",
];
const rolesQueries = "src/features/roles/queries.ts";

/**
 * Every page of the console, with what it loads. The route preloads (tooling/route-preloads.ts),
 * the build's budget (tooling/js-budget.ts), the benchmark and an end-to-end test of what the
 * browser downloads (e2e/tests/route-js.spec.ts) all read this table.
 */
export const consoleRoutes = {
  // The sign-in page and its error element are part of the entry (src/features/auth/routes.tsx).
  // 151: reading the sign-in options and offering single sign-on added 0.3 KB to a page at 149.9.
  "sign-in": { path: "/sign-in", routeModules: [], afterPaintModules: [], budgetKB: 151 },
  identities: {
    path: "/identities",
    routeModules: [...signedIn, "src/features/identities/components/identities-page.tsx"],
    afterPaintModules: [
      ...topBarMenus,
      "src/features/identities/components/identities-table.tsx",
      "src/features/identities/components/create-identity-dialog.tsx",
    ],
    // +1: the dry-run login endpoints in the contract, and CASL in a chunk of its own (the permission previews share it).
    budgetKB: 243,
  },
  identity: {
    path: "/identities/:identityId",
    routeModules: [...identityPage, "src/features/identities/components/identity-overview.tsx"],
    afterPaintModules: topBarMenus,
    // 271: "Add my address" in the trusted-IP editors (the address read from the BFF) took a page
    // near 270 to 270.1 KB; "Would this address pass?" is loaded with the form, not the page.
    // +1: the command palette's launcher (Ctrl-K, the header's search button, a lazy import) and the "Expiring" link, on every signed-in route.
    // +1: the dry-run login endpoints in the contract, and CASL in a chunk of its own (the permission previews share it).
    budgetKB: 273,
  },
  "identity-edit": {
    path: "/identities/:identityId/edit",
    routeModules: [...identityPage, "src/features/identities/components/identity-edit-form.tsx"],
    afterPaintModules: topBarMenus,
    // +1: the command palette's launcher (Ctrl-K, the header's search button, a lazy import) and the "Expiring" link, on every signed-in route.
    budgetKB: 254,
  },
  projects: {
    path: "/projects",
    routeModules: [
      ...signedIn,
      "src/features/projects/queries.ts",
      "src/features/projects/components/projects-page.tsx",
    ],
    afterPaintModules: [
      ...topBarMenus,
      "src/features/projects/components/projects-table.tsx",
      "src/features/projects/components/create-project-dialog.tsx",
    ],
    // +1: the dry-run login endpoints in the contract, and CASL in a chunk of its own (the permission previews share it).
    budgetKB: 241,
  },
  "org-settings": {
    path: "/settings",
    routeModules: [...signedIn, "src/features/org-settings/components/org-settings-page.tsx"],
    afterPaintModules: topBarMenus,
    // +1: the command palette's launcher (Ctrl-K, the header's search button, a lazy import) and the "Expiring" link, on every signed-in route.
    budgetKB: 252,
  },
  "sso-setup": {
    path: "/settings/sign-in",
    routeModules: [...signedIn, "src/features/sso-setup/components/sso-setup-page.tsx"],
    afterPaintModules: topBarMenus,
    budgetKB: 252,
  },
  // The test window's landing page: no frame, no menus (its error element is the console's).
  "sso-test": {
    path: "/sso-test",
    routeModules: ["src/features/sso-setup/components/sso-test-page.tsx", "src/components/errors/route-error.tsx"],
    afterPaintModules: [],
    budgetKB: 165,
  },
  project: {
    path: "/projects/:projectId",
    routeModules: [
      ...inProject,
      "src/features/projects/queries.ts",
      "src/features/projects/components/project-overview.tsx",
    ],
    afterPaintModules: topBarMenus,
    // +1: the dry-run login endpoints in the contract, and CASL in a chunk of its own (the permission previews share it).
    budgetKB: 271,
  },
  secrets: {
    path: "/projects/:projectId/secrets",
    routeModules: [
      ...inProject,
      "src/features/secrets/prefetch.ts",
      "src/features/secrets/components/secrets-page.tsx",
    ],
    afterPaintModules: [
      ...topBarMenus,
      "src/features/secrets/components/create-secret-dialog.tsx",
      "src/features/secrets/components/create-folder-dialog.tsx",
    ],
    // +1: the dry-run login endpoints in the contract, and CASL in a chunk of its own (the permission previews share it).
    budgetKB: 283,
  },
  "secrets-overview": {
    path: "/projects/:projectId/overview",
    routeModules: [
      ...inProject,
      "src/features/secrets/overview/prefetch.ts",
      "src/features/secrets/overview/components/overview-page.tsx",
    ],
    afterPaintModules: topBarMenus,
    // +1: the command palette's launcher (Ctrl-K, the header's search button, a lazy import) and the "Expiring" link, on every signed-in route.
    budgetKB: 261,
  },
  "secret-history": {
    path: "/projects/:projectId/secret-history",
    routeModules: [...inProject, "src/features/secret-history/components/secret-history-page.tsx"],
    afterPaintModules: topBarMenus,
    // +1: the command palette's launcher (Ctrl-K, the header's search button, a lazy import) and the "Expiring" link, on every signed-in route.
    budgetKB: 236,
  },
  "secret-imports": {
    path: "/projects/:projectId/secret-imports",
    routeModules: [
      ...inProject,
      "src/features/secret-imports/loader.ts",
      "src/features/secret-imports/components/secret-imports-page.tsx",
    ],
    afterPaintModules: topBarMenus,
    // +1: the command palette's launcher (Ctrl-K, the header's search button, a lazy import) and the "Expiring" link, on every signed-in route.
    // +1: the dry-run login endpoints in the contract, and CASL in a chunk of its own (the permission previews share it).
    budgetKB: 281,
  },
  roles: {
    path: "/projects/:projectId/roles",
    routeModules: [...inProject, rolesQueries, "src/features/roles/components/roles-page.tsx"],
    afterPaintModules: topBarMenus,
    // +1: the command palette's launcher (Ctrl-K, the header's search button, a lazy import) and the "Expiring" link, on every signed-in route.
    budgetKB: 266,
  },
  role: {
    path: "/projects/:projectId/roles/:roleSlug",
    routeModules: [
      ...inProject,
      rolesQueries,
      "src/features/roles/components/role-page.tsx",
      "src/features/roles/components/role-crumb.tsx",
    ],
    afterPaintModules: topBarMenus,
    // +2: the permission-change preview's launcher (the save goes through it) and CASL in a chunk of its own,
    // shared with the preview that loads with the dialog; the dry-run login endpoints in the contract.
    budgetKB: 277,
  },
  access: {
    path: "/projects/:projectId/access",
    routeModules: [...inProject, "src/features/access/queries.ts", "src/features/access/components/access-page.tsx"],
    afterPaintModules: topBarMenus,
    // +2: the previews of the privilege and edit-roles dialogs and the effective-access launcher, CASL in a
    // chunk of its own; the dry-run login endpoints in the contract.
    budgetKB: 274,
  },
  auditLog: {
    path: "/audit-log",
    routeModules: [...signedIn, "src/features/audit-log/components/audit-log-page.tsx"],
    // The export menu mounts with the page (lazily); the drawer loads when an event is opened.
    afterPaintModules: [...topBarMenus, "src/features/audit-log/components/export-menu.tsx"],
    // +1: the command palette's launcher (Ctrl-K, the header's search button, a lazy import) and the "Expiring" link, on every signed-in route.
    budgetKB: 263,
  },
  integrations: {
    path: "/projects/:projectId/integrations",
    routeModules: [
      ...inProject,
      "src/features/integrations/loader.ts",
      "src/features/integrations/components/integrations-page.tsx",
    ],
    afterPaintModules: topBarMenus,
    // +1: the dry-run login endpoints in the contract, and CASL in a chunk of its own (the permission previews share it).
    budgetKB: 238,
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

/** The text of index.html's inline scripts (not its data blocks), which arrive within the page itself. */
export function inlineScriptsOfHtml(html: string): string[] {
  const scripts: string[] = [];
  for (const [, attributes = "", text = ""] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc=/i.test(attributes)) continue;
    const type = /\btype=["']?([^"'\s>]+)/i.exec(attributes)?.[1];
    if (type === undefined || type === "module" || type === "text/javascript") scripts.push(text);
  }
  return scripts;
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

/** One script the browser requested: its built file (relative to dist/) and when it was sent and arrived. */
export interface ScriptRequest {
  file: string;
  sentAt: number;
  finishedAt: number;
}

/**
 * The round of each script request: 1 for a script sent before any script had arrived, else one
 * more than the highest round among the scripts that had arrived when it was sent. A request can
 * only depend on a script that had arrived, so this is an upper bound of its chain of requests
 * (a script sent late for another reason counts as waiting).
 */
export function scriptRounds(requests: readonly ScriptRequest[]): Map<string, number> {
  const sorted = [...requests].sort((a, b) => a.sentAt - b.sentAt);
  const rounds = new Map<string, number>();
  const done: { finishedAt: number; round: number }[] = [];
  for (const request of sorted) {
    const before = done.filter((d) => d.finishedAt <= request.sentAt).map((d) => d.round);
    const round = 1 + Math.max(0, ...before);
    rounds.set(request.file, Math.max(round, rounds.get(request.file) ?? 0));
    done.push({ finishedAt: request.finishedAt, round });
  }
  return rounds;
}

export interface RouteJs {
  files: { file: string; gzipBytes: number }[];
  gzipBytes: number;
}

/**
 * Reads the files of a route from a build (dist/) and adds up their gzip sizes, with index.html's
 * inline scripts (each gzipped alone: an upper bound of what they add to the page's download).
 */
export async function measureRouteJs(distDir: string, route: ConsoleRoute): Promise<RouteJs> {
  const manifest = JSON.parse(await readFile(path.join(distDir, ".vite", "manifest.json"), "utf8")) as Manifest;
  const html = await readFile(path.join(distDir, "index.html"), "utf8");
  const files = await Promise.all(
    routeScriptFiles(manifest, html, route).map(async (file) => ({
      file,
      gzipBytes: gzipSync(await readFile(path.join(distDir, file)), { level: 9 }).length,
    })),
  );
  const inline = inlineScriptsOfHtml(html).map((text, i) => ({
    file: `index.html, inline script ${i + 1}`,
    gzipBytes: gzipSync(text, { level: 9 }).length,
  }));
  const all = [...files, ...inline];
  return { files: all, gzipBytes: all.reduce((sum, f) => sum + f.gzipBytes, 0) };
}

export interface RouteVerdict {
  ok: boolean;
  message: string;
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/**
 * The verdict on every route's first load: one line per route (its JavaScript, files, budget and
 * the aim), and the largest files of each route over its budget.
 */
export function judgeRoutes(
  measured: Readonly<Record<string, RouteJs>>,
  routes: Readonly<Record<string, ConsoleRoute>>,
): RouteVerdict {
  const lines: string[] = [];
  const over: string[] = [];
  for (const [id, route] of Object.entries(routes)) {
    const js = measured[id];
    if (!js) throw new Error(`route ${id} was not measured`);
    const budget = route.budgetKB * KB;
    const aim = js.gzipBytes <= FIRST_LOAD_AIM_BYTES ? "within" : "over";
    lines.push(
      `  ${id.padEnd(15)} ${kb(js.gzipBytes).padStart(9)} gzip in ${String(js.files.length).padStart(2)} files (budget ${kb(budget)}; ${aim} the ${kb(FIRST_LOAD_AIM_BYTES)} aim)`,
    );
    if (js.gzipBytes <= budget) continue;
    const largest = [...js.files]
      .sort((a, b) => b.gzipBytes - a.gzipBytes)
      .slice(0, 5)
      .map((f) => `    ${kb(f.gzipBytes).padStart(9)}  ${f.file}`);
    over.push(`${id} route over budget by ${kb(js.gzipBytes - budget)}. Largest files:\n${largest.join("\n")}`);
  }
  const table = `first-load JavaScript by route:\n${lines.join("\n")}`;
  return over.length === 0 ? { ok: true, message: table } : { ok: false, message: `${table}\n${over.join("\n")}` };
}
