import path from "node:path";
import type { Logger, Plugin } from "vite";
import { consoleRoutes, judgeSignIn, KB, measureRouteJs } from "./route-js.ts";

/**
 * Fails the build when the sign-in route needs more JavaScript than its budget, so a
 * dependency that leaks into the first screen is caught by `npm test`, not by users.
 * It runs once the files are written, on what was actually built.
 */
export function jsBudget(): Plugin {
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
      const [signIn, identities] = await Promise.all([
        measureRouteJs(outDir, consoleRoutes["sign-in"]),
        measureRouteJs(outDir, consoleRoutes.identities),
      ]);
      const verdict = judgeSignIn(signIn);
      logger?.info(`${verdict.message}; identities route: ${(identities.gzipBytes / KB).toFixed(1)} KB`);
      if (!verdict.ok) this.error(verdict.message);
    },
  };
}
