import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Plugin } from "vite";
import type { ConsoleRoute } from "./route-js.ts";

/**
 * A page of the console opened by its address (a link, a reload) needs its route's code,
 * which the router would request only once the app's own code has arrived and started. This
 * plugin writes, into index.html, which chunks each route needs, and inlines the boot script
 * (web/boot.js), which reads it and preloads them for the address being opened, beside the
 * app's own code: one round of requests, with no script file to fetch before the first paint.
 * The sign-in page needs nothing beyond the app's entry and so preloads nothing.
 *
 * The Content-Security-Policy allows that one inline script by its hash, which the build
 * writes to `.vite/csp.json` (`{"script-src": ["'sha256-…'"]}`) for the BFF to read;
 * deploy/nginx.conf names the same hash, and a test keeps the two in step.
 */

/** The parts of a built chunk this plugin reads. */
export interface BuiltChunk {
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: readonly string[];
}

export interface RoutePreload {
  path: string;
  files: string[];
}

export const ROUTE_PRELOADS_ID = "route-preloads";

/** For each route, the chunks its route modules need that the entry does not already load. */
export function routePreloadTable(
  chunks: readonly BuiltChunk[],
  routes: readonly ConsoleRoute[],
  root: string,
  base = "/",
): RoutePreload[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const byModule = new Map(
    chunks.flatMap((chunk) =>
      chunk.facadeModuleId
        ? [[path.relative(root, chunk.facadeModuleId).split(path.sep).join("/"), chunk] as const]
        : [],
    ),
  );
  const closure = (start: readonly BuiltChunk[]) => {
    const files = new Set<string>();
    const visit = (chunk: BuiltChunk) => {
      if (files.has(chunk.fileName)) return;
      files.add(chunk.fileName);
      for (const file of chunk.imports) {
        const next = byFile.get(file);
        if (next) visit(next);
      }
    };
    start.forEach(visit);
    return files;
  };
  const loadedByEntry = closure(chunks.filter((chunk) => chunk.isEntry));
  return routes
    .filter((route) => route.routeModules.length > 0)
    .map((route) => {
      const start = route.routeModules.map((module) => {
        const chunk = byModule.get(module);
        if (!chunk) throw new Error(`route preloads: ${module} is not a chunk of the build`);
        return chunk;
      });
      const files = [...closure(start)].filter((file) => !loadedByEntry.has(file)).sort();
      return { path: route.path, files: files.map((file) => `${base}${file}`) };
    });
}

/** How index.html loads the boot script in development; the build inlines it in its place. */
export const BOOT_SCRIPT_TAG = '<script src="/boot.js"></script>';
const BOOT_PLACEHOLDER = "<!-- keyhold:boot -->";
/** Where the build writes the CSP sources of its inline scripts, relative to dist/. */
export const CSP_FILE = ".vite/csp.json";

/** The CSP source allowing an inline script: the SHA-256 of its text, as the browser hashes it. */
export function scriptHash(source: string): string {
  return `'sha256-${createHash("sha256").update(source, "utf8").digest("base64")}'`;
}

/** Inlines the boot script and the route table (a data block, which the CSP does not govern) it reads. */
export function routePreloads(routes: readonly ConsoleRoute[], bootScriptFile: string): Plugin[] {
  let root = "";
  let base = "/";
  let outDir = "";
  let bootHash: string | undefined;
  return [
    {
      name: "keyhold:boot-script",
      apply: "build",
      // Before Vite looks at index.html's scripts: the boot script is not a module to bundle.
      transformIndexHtml: {
        order: "pre",
        handler(html) {
          if (!html.includes(BOOT_SCRIPT_TAG)) throw new Error(`route preloads: index.html has no ${BOOT_SCRIPT_TAG}`);
          return html.replace(BOOT_SCRIPT_TAG, BOOT_PLACEHOLDER);
        },
      },
    },
    {
      name: "keyhold:route-preloads",
      apply: "build",
      configResolved(config) {
        root = config.root;
        base = config.base;
        outDir = path.resolve(config.root, config.build.outDir);
      },
      transformIndexHtml: {
        order: "post",
        async handler(html, { bundle }) {
          if (!bundle) return html;
          const chunks = Object.values(bundle).flatMap((output) => (output.type === "chunk" ? [output] : []));
          const table = routePreloadTable(chunks, routes, root, base);
          const data = JSON.stringify(table).replace(/</g, "\\u003c");
          const boot = await readFile(bootScriptFile, "utf8");
          if (/<\/script/i.test(boot)) throw new Error("route preloads: the boot script may not contain </script");
          bootHash = scriptHash(boot);
          return html.replace(
            BOOT_PLACEHOLDER,
            () =>
              `<script type="application/json" id="${ROUTE_PRELOADS_ID}">${data}</script>\n    <script>${boot}</script>`,
          );
        },
      },
      async writeBundle() {
        if (!bootHash) throw new Error("route preloads: index.html was not built");
        await mkdir(path.join(outDir, path.dirname(CSP_FILE)), { recursive: true });
        await writeFile(path.join(outDir, CSP_FILE), `${JSON.stringify({ "script-src": [bootHash] })}\n`);
      },
    },
  ];
}
