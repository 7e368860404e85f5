import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ConsoleRoute,
  consoleRoutes,
  inlineScriptsOfHtml,
  judgeRoutes,
  KB,
  type Manifest,
  measureRouteJs,
  routeScriptFiles,
  scriptRounds,
  scriptsOfHtml,
} from "./route-js.ts";

const html = `<!doctype html><html><head>
<script src="/boot.js"></script>
<script type="module" crossorigin src="/assets/index-a1.js"></script>
<link rel="modulepreload" crossorigin href="/assets/react-b2.js">
<link rel="stylesheet" crossorigin href="/assets/index-c3.css">
<link rel="preload" as="font" href="/assets/inter-d4.woff2" crossorigin>
<script src="https://elsewhere.example/x.js"></script>
</head><body><div id="root"></div></body></html>`;

/** index.html → index-a1 (→ react-b2, shared-e5); two lazy pages, one of them sharing a chunk with the entry. */
const manifest: Manifest = {
  "index.html": {
    file: "assets/index-a1.js",
    src: "index.html",
    isEntry: true,
    imports: ["_react-b2.js", "_shared-e5.js"],
    dynamicImports: ["src/app/app-shell.tsx", "src/features/identities/components/identities-page.tsx"],
    css: ["assets/index-c3.css"],
  },
  "_react-b2.js": { file: "assets/react-b2.js" },
  "_shared-e5.js": { file: "assets/shared-e5.js", imports: ["_react-b2.js"] },
  "_table-f6.js": { file: "assets/table-f6.js", imports: ["_react-b2.js"] },
  "src/app/app-shell.tsx": { file: "assets/app-shell-g7.js", isDynamicEntry: true, imports: ["_shared-e5.js"] },
  "src/features/identities/components/identities-page.tsx": {
    file: "assets/identities-page-h8.js",
    isDynamicEntry: true,
    imports: ["_table-f6.js", "_shared-e5.js"],
  },
};

const signIn: ConsoleRoute = { path: "/sign-in", routeModules: [], afterPaintModules: [], budgetKB: 150 };
const identities: ConsoleRoute = {
  path: "/identities",
  routeModules: ["src/app/app-shell.tsx"],
  afterPaintModules: ["src/features/identities/components/identities-page.tsx"],
  budgetKB: 250,
};

describe("inlineScriptsOfHtml", () => {
  it("reads inline classic and module scripts, not data blocks or scripts with a src", () => {
    const page = `<script type="application/json" id="t">[1]</script><script>boot()</script>
<script src="/x.js"></script><script type="module">go()</script><script type="importmap">{}</script>`;
    expect(inlineScriptsOfHtml(page)).toEqual(["boot()", "go()"]);
  });
});

describe("routeScriptFiles", () => {
  it("reads index.html's local scripts and modulepreloads, not its styles, fonts or remote scripts", () => {
    expect(scriptsOfHtml(html).sort()).toEqual(["assets/index-a1.js", "assets/react-b2.js", "boot.js"]);
  });

  it("counts the entry and its static imports for the sign-in route, not the lazy pages", () => {
    expect(routeScriptFiles(manifest, html, signIn)).toEqual([
      "assets/index-a1.js",
      "assets/react-b2.js",
      "assets/shared-e5.js",
      "boot.js",
    ]);
  });

  it("adds a route's lazy pages and their static imports, each file once", () => {
    expect(routeScriptFiles(manifest, html, identities)).toEqual([
      "assets/app-shell-g7.js",
      "assets/identities-page-h8.js",
      "assets/index-a1.js",
      "assets/react-b2.js",
      "assets/shared-e5.js",
      "assets/table-f6.js",
      "boot.js",
    ]);
  });

  it("refuses a route module that is not a lazy chunk of the build", () => {
    const renamed: ConsoleRoute = {
      path: "/identities",
      routeModules: ["src/features/identities/identities-page.tsx"],
      afterPaintModules: [],
      budgetKB: 200,
    };
    expect(() => routeScriptFiles(manifest, html, renamed)).toThrow(
      /identities-page\.tsx is not a lazily loaded chunk/,
    );
  });

  it("refuses a manifest without a JavaScript entry", () => {
    expect(() => routeScriptFiles({ "_react-b2.js": { file: "assets/react-b2.js" } }, "", signIn)).toThrow(
      /no JavaScript entry/,
    );
  });
});

describe("the routes' budgets", () => {
  let dist: string | undefined;
  afterEach(async () => {
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  /** Writes a fake build whose files are random bytes (gzip cannot shrink them) of the given sizes. */
  async function fakeBuild(sizes: Record<string, number>): Promise<string> {
    dist = await mkdtemp(path.join(tmpdir(), "keyhold-route-js-"));
    await mkdir(path.join(dist, "assets"));
    await mkdir(path.join(dist, ".vite"));
    await writeFile(path.join(dist, ".vite", "manifest.json"), JSON.stringify(manifest));
    await writeFile(path.join(dist, "index.html"), html);
    for (const [file, size] of Object.entries(sizes)) await writeFile(path.join(dist, file), randomBytes(size));
    return dist;
  }

  const files = (entryBytes: number, pageBytes = 5 * KB) => ({
    "boot.js": 300,
    "assets/index-a1.js": entryBytes,
    "assets/react-b2.js": 40 * KB,
    "assets/shared-e5.js": 10 * KB,
    "assets/table-f6.js": 90 * KB,
    "assets/app-shell-g7.js": 5 * KB,
    "assets/identities-page-h8.js": pageBytes,
  });
  const routes = { "sign-in": signIn, identities };

  async function measureAll(build: string) {
    return { "sign-in": await measureRouteJs(build, signIn), identities: await measureRouteJs(build, identities) };
  }

  it("passes routes under their budgets, and says each one's figure against the 100 KB aim", async () => {
    const measured = await measureAll(await fakeBuild(files(60 * KB)));
    expect(measured["sign-in"].files).toHaveLength(4);
    expect(measured["sign-in"].gzipBytes).toBeGreaterThan(110 * KB);
    expect(measured.identities.files).toHaveLength(7);
    expect(measured.identities.gzipBytes).toBeGreaterThan(signIn.budgetKB * KB);
    const verdict = judgeRoutes(measured, routes);
    expect(verdict.ok).toBe(true);
    expect(verdict.message).toMatch(
      /^ {2}sign-in +1\d\d\.\d KB gzip in {2}4 files \(budget 150\.0 KB; over the 100\.0 KB aim\)$/m,
    );
    expect(verdict.message).toMatch(/^ {2}identities +\d{3}\.\d KB gzip in {2}7 files \(budget 250\.0 KB;/m);
  });

  it("fails a route over its budget and names its largest files, even when the others pass", async () => {
    // The sign-in route is within its budget; the identities page's own chunk pushes it over.
    const measured = await measureAll(await fakeBuild(files(60 * KB, 60 * KB)));
    expect(measured["sign-in"].gzipBytes).toBeLessThan(signIn.budgetKB * KB);
    const verdict = judgeRoutes(measured, routes);
    expect(verdict.ok).toBe(false);
    expect(verdict.message).toMatch(/^identities route over budget by \d+\.\d KB/m);
    expect(verdict.message).not.toMatch(/^sign-in route over budget/m);
    expect(verdict.message).toMatch(/^\s+\d+\.\d KB {2}assets\/identities-page-h8\.js$/m);
  });

  it("refuses to judge a route that was not measured", async () => {
    const measured = await measureAll(await fakeBuild(files(60 * KB)));
    expect(() => judgeRoutes({ "sign-in": measured["sign-in"] }, routes)).toThrow(/identities was not measured/);
  });

  it("measures gzip, not raw bytes", async () => {
    dist = await mkdtemp(path.join(tmpdir(), "keyhold-route-js-"));
    await mkdir(path.join(dist, "assets"));
    await mkdir(path.join(dist, ".vite"));
    await writeFile(
      path.join(dist, ".vite", "manifest.json"),
      JSON.stringify({ "index.html": { file: "assets/index-a1.js", isEntry: true } }),
    );
    await writeFile(path.join(dist, "index.html"), '<script type="module" src="/assets/index-a1.js"></script>');
    await writeFile(path.join(dist, "assets", "index-a1.js"), "export const x = 1;\n".repeat(10_000));
    const measured = await measureRouteJs(dist, signIn);
    // 195 KB raw, yet within a 2 KB budget.
    expect(measured.gzipBytes).toBeLessThan(2 * KB);
    expect(judgeRoutes({ "sign-in": measured }, { "sign-in": { ...signIn, budgetKB: 2 } }).ok).toBe(true);
  });

  it("covers every page of the console's router", () => {
    const patterns = Object.values(consoleRoutes).map((route) => route.path);
    expect(new Set(patterns).size).toBe(patterns.length);
    expect(patterns).toEqual(
      expect.arrayContaining([
        "/sign-in",
        "/identities",
        "/identities/:identityId",
        "/identities/:identityId/edit",
        "/projects",
        "/projects/:projectId",
        "/projects/:projectId/secrets",
        "/projects/:projectId/overview",
        "/projects/:projectId/secret-history",
        "/projects/:projectId/secret-imports",
        "/projects/:projectId/roles",
        "/projects/:projectId/roles/:roleSlug",
        "/projects/:projectId/access",
        "/projects/:projectId/integrations",
      ]),
    );
  });
});

describe("scriptRounds", () => {
  it("puts a script in the round after the latest round that had arrived when it was sent", () => {
    const rounds = scriptRounds([
      { file: "boot.js", sentAt: 0, finishedAt: 10 },
      { file: "entry.js", sentAt: 1, finishedAt: 50 },
      // Sent by boot.js once it had arrived: round two, though the entry is still arriving.
      { file: "page.js", sentAt: 12, finishedAt: 40 },
      // Sent once the page's chunk had arrived: round three.
      { file: "late.js", sentAt: 45, finishedAt: 60 },
    ]);
    expect(Object.fromEntries(rounds)).toEqual({ "boot.js": 1, "entry.js": 1, "page.js": 2, "late.js": 3 });
  });

  it("takes a script's latest request when it was requested twice", () => {
    const rounds = scriptRounds([
      { file: "a.js", sentAt: 0, finishedAt: 10 },
      { file: "b.js", sentAt: 1, finishedAt: 5 },
      { file: "b.js", sentAt: 11, finishedAt: 15 },
    ]);
    expect(rounds.get("b.js")).toBe(2);
  });
});
