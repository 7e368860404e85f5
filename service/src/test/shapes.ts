import { recording } from "@keyhold/fixtures";

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

/** The body a mid-2026 Infisical server answered in the recording whose file name starts so. */
export function recordedBody(prefix: string): unknown {
  return recording(2026, prefix).body;
}

/**
 * The shapes of our answer and a recorded one, side by side for `toEqual`: where either side has
 * an empty list, both show an empty list (an empty list says nothing about its items' shape).
 */
export function shapesSideBySide(ours: unknown, recorded: unknown): [unknown, unknown] {
  if (Array.isArray(ours) && Array.isArray(recorded)) {
    if (ours.length === 0 || recorded.length === 0) return [[], []];
    const [a, b] = shapesSideBySide(ours[0], recorded[0]);
    return [[a], [b]];
  }
  if (ours && recorded && typeof ours === "object" && typeof recorded === "object" && !Array.isArray(ours)) {
    const a: Record<string, unknown> = {};
    const b: Record<string, unknown> = {};
    const theirs = recorded as Record<string, unknown>;
    const mine = ours as Record<string, unknown>;
    for (const key of [...new Set([...Object.keys(mine), ...Object.keys(theirs)])].sort()) {
      if (key in mine && key in theirs) [a[key], b[key]] = shapesSideBySide(mine[key], theirs[key]);
      else if (key in mine) a[key] = shapeOf(mine[key]);
      else b[key] = shapeOf(theirs[key]);
    }
    return [a, b];
  }
  return [shapeOf(ours), shapeOf(recorded)];
}
