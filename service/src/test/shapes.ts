import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../config.ts";

/** A value's shape: the same keys at every depth and the same types, values ignored. */
export function shapeOf(value: unknown): unknown {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((key) => [key, shapeOf((value as Record<string, unknown>)[key])]),
    );
  }
  return typeof value;
}

const samples2026 = path.resolve(repoRoot, "../shared/reference/infisical-samples-2026");

/** The body a mid-2026 Infisical server answered in the recording whose file name starts so. */
export function recordedBody(prefix: string): unknown {
  const file = fs.readdirSync(samples2026).find((name) => name.startsWith(prefix));
  if (!file) throw new Error(`no recording ${prefix}`);
  return (JSON.parse(fs.readFileSync(path.join(samples2026, file), "utf8")) as { body: unknown }).body;
}
