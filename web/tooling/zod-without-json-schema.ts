import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";

/**
 * zod's classic API imports its JSON Schema generator into every schema (`.toJSONSchema()`),
 * so the browser would carry it (about 5 KB gzip, a thirtieth of the sign-in budget) though
 * the console never generates JSON Schema: the service does, for OpenAPI. This plugin gives
 * the browser build stand-ins for those two zod modules, exporting the same names, each
 * throwing if it is ever called. Should zod move them, nothing is replaced and the sign-in
 * JavaScript budget shows the difference.
 */
const STUBBED = ["json-schema-processors.js", "to-json-schema.js"];
const PREFIX = "\0zod-without-json-schema:";

/** The names a zod core module exports (`export function x` / `export const x`). */
export function exportedNames(source: string): string[] {
  return [...source.matchAll(/^export (?:async )?(?:function\*?|const|let|class) ([\w$]+)/gm)].map(
    (m) => m[1] as string,
  );
}

export function stubModule(names: readonly string[]): string {
  const body = names.map(
    (name) =>
      `export function ${name}() { throw new Error("zod's JSON Schema support (${name}) is not built into the console"); }`,
  );
  return body.join("\n");
}

export function zodWithoutJsonSchema(): Plugin {
  const coreDir = path.dirname(createRequire(import.meta.url).resolve("zod/v4/core"));
  return {
    name: "keyhold:zod-without-json-schema",
    apply: "build",
    enforce: "pre",
    resolveId(source, importer) {
      if (!importer || !/[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/.test(importer)) return null;
      const file = STUBBED.find((name) => source.endsWith(`/core/${name}`));
      return file ? `${PREFIX}${file}` : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      return stubModule(exportedNames(readFileSync(path.join(coreDir, id.slice(PREFIX.length)), "utf8")));
    },
  };
}
