import type { ValidationIssue } from "./errors.ts";

/**
 * What text a request may carry towards storage. PostgreSQL refuses the NUL character in text
 * ("invalid byte sequence for encoding UTF8: 0x00"), and an unpaired UTF-16 surrogate has no
 * UTF-8 form at all: SQLite and PostgreSQL would each store a different replacement for it.
 * Both are refused where requests enter (the service's routes and the BFF's), in every string
 * of the params, query and body at any depth, object keys included, so no query ever sees them.
 * Every other character is kept: tabs and line breaks belong in secret values and comments.
 */

/** A validation issue in the shape zod gives, so it travels in the same 422 body. */
export type TextIssue = ValidationIssue & { code: "custom" };

export const NUL_CHARACTER_MESSAGE = "Text cannot contain the NUL character (U+0000)";
export const LONE_SURROGATE_MESSAGE = "Text must be valid Unicode: it holds an unpaired surrogate (U+D800 to U+DFFF)";

/** Either character at all: one scan, and most text stops here. */
const SUSPECT = /[\0\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function unstorable(text: string): string | undefined {
  if (!SUSPECT.test(text)) return undefined;
  if (text.includes("\0")) return NUL_CHARACTER_MESSAGE;
  return LONE_SURROGATE.test(text) ? LONE_SURROGATE_MESSAGE : undefined;
}

/** Where a value sits, as a chain up to the root: copied into an array only for an issue. */
interface Place {
  key: string | number;
  parent: Place | undefined;
}

function pathOf(place: Place | undefined): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at = place; at; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The strings in a request's params, query or body (as parsed from the wire, before any schema)
 * that cannot be stored, each named by its path. The walk keeps its own stack: a body nested
 * deeper than the call stack allows is walked all the same.
 */
export function unstorableTextIssues(value: unknown): TextIssue[] {
  const issues: TextIssue[] = [];
  const stack: Container[] = [];
  visit(value, undefined, stack, issues);
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const { container, place } = entry;
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) visit(container[i], { key: i, parent: place }, stack, issues);
      continue;
    }
    for (const key in container) {
      if (!Object.hasOwn(container, key)) continue;
      const message = unstorable(key);
      if (message) issues.push({ code: "custom", path: pathOf({ key, parent: place }), message });
      else visit((container as Record<string, unknown>)[key], { key, parent: place }, stack, issues);
    }
  }
  return issues;
}

interface Container {
  container: object;
  place: Place | undefined;
}

// Declared once, not per call: this runs on every request.
function visit(item: unknown, place: Place | undefined, stack: Container[], issues: TextIssue[]): void {
  if (typeof item === "string") {
    const message = unstorable(item);
    if (message) issues.push({ code: "custom", path: pathOf(place), message });
  } else if (typeof item === "object" && item !== null) {
    stack.push({ container: item, place });
  }
}
