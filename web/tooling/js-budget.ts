import path from "node:path";
import type { Logger, Plugin } from "vite";
import { type ConsoleRoute, judgeRoutes, measureRouteJs, type RouteJs } from "./route-js.ts";

/**
 * Fails the build when a route of the console needs more JavaScript than its budget, so a
 * dependency that leaks into a page's first load is caught by `npm test`, not by users.
 * It runs once the files are written, on what was actually built.
 */
export function jsBudget(routes: Readonly<Record<string, ConsoleRoute>>): Plugin {
  let outDir = "";
  let logger: Logger | undefined;
  // closeBundle also runs after a failed build, when dist/ holds an older build's files.
  let written = false;
  return {
    name: "keyhold:js-budget",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    writeBundle() {
      written = true;
    },
    async closeBundle() {
      if (!written) return;
      const measured: Record<string, RouteJs> = Object.fromEntries(
        await Promise.all(
          Object.entries(routes).map(async ([id, route]) => [id, await measureRouteJs(outDir, route)] as const),
        ),
      );
      const verdict = judgeRoutes(measured, routes);
      if (!verdict.ok) this.error(verdict.message);
      logger?.info(verdict.message);
    },
  };
}
