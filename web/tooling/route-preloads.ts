import path from "node:path";
import type { Plugin } from "vite";
import type { ConsoleRoute } from "./route-js.ts";

/**
 * A page of the console opened by its address (a link, a reload) needs its route's code,
 * which the router would request only once the app's own code has arrived and started. This
 * plugin writes, into index.html, which chunks each route needs; public/boot.js reads it and
 * preloads them for the address being opened, beside the app's own code. The sign-in page
 * needs nothing beyond the app's entry and so preloads nothing.
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

/** The table as a data block (not a script the CSP would have to allow), placed before boot.js, which reads it. */
export function routePreloads(routes: readonly ConsoleRoute[]): Plugin {
  let root = "";
  let base = "/";
  return {
    name: "keyhold:route-preloads",
    apply: "build",
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    transformIndexHtml: {
      order: "post",
      handler(html, { bundle }) {
        if (!bundle) return html;
        const chunks = Object.values(bundle).flatMap((output) => (output.type === "chunk" ? [output] : []));
        const table = routePreloadTable(chunks, routes, root, base);
        const boot = /<script src="\/boot\.js"><\/script>/;
        if (!boot.test(html)) throw new Error('route preloads: index.html has no <script src="/boot.js">');
        const data = JSON.stringify(table).replace(/</g, "\\u003c");
        return html.replace(
          boot,
          (tag) => `<script type="application/json" id="${ROUTE_PRELOADS_ID}">${data}</script>\n    ${tag}`,
        );
      },
    },
  };
}
