import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ConsoleRoute,
  judgeSignIn,
  KB,
  type Manifest,
  measureRouteJs,
  routeScriptFiles,
  SIGN_IN_BUDGET_BYTES,
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

const signIn: ConsoleRoute = { path: "/sign-in", routeModules: [], afterPaintModules: [] };
const identities: ConsoleRoute = {
  path: "/identities",
  routeModules: ["src/app/app-shell.tsx"],
  afterPaintModules: ["src/features/identities/components/identities-page.tsx"],
};

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

describe("the sign-in budget", () => {
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

  const files = (entryBytes: number) => ({
    "boot.js": 300,
    "assets/index-a1.js": entryBytes,
    "assets/react-b2.js": 40 * KB,
    "assets/shared-e5.js": 10 * KB,
    "assets/table-f6.js": 90 * KB,
    "assets/app-shell-g7.js": 5 * KB,
    "assets/identities-page-h8.js": 5 * KB,
  });

  it("passes a sign-in route under budget, whatever the lazy pages weigh", async () => {
    const measured = await measureRouteJs(await fakeBuild(files(60 * KB)), signIn);
    expect(measured.files.map((f) => f.file)).toHaveLength(4);
    expect(measured.gzipBytes).toBeGreaterThan(110 * KB);
    expect(measured.gzipBytes).toBeLessThan(SIGN_IN_BUDGET_BYTES);
    expect(judgeSignIn(measured)).toEqual({
      ok: true,
      message: expect.stringMatching(/^sign-in route JavaScript: 1\d\d\.\d KB gzip in 4 files \(budget 150\.0 KB\)$/),
    });
  });

  it("fails a sign-in route over budget and names its largest files", async () => {
    const measured = await measureRouteJs(await fakeBuild(files(110 * KB)), signIn);
    expect(measured.gzipBytes).toBeGreaterThan(SIGN_IN_BUDGET_BYTES);
    const verdict = judgeSignIn(measured);
    expect(verdict.ok).toBe(false);
    expect(verdict.message).toMatch(/over budget by \d+\.\d KB/);
    expect(verdict.message).toMatch(/^\s+1\d\d\.\d KB {2}assets\/index-a1\.js$/m);
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
    expect(measured.gzipBytes).toBeLessThan(2 * KB);
    // 195 KB raw, yet within a 2 KB budget.
    expect(judgeSignIn(measured, 2 * KB).ok).toBe(true);
  });
});
