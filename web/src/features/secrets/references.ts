/**
 * Secret references inside values, as Infisical writes them: `${KEY}` is a key of the same
 * folder, `${env.KEY}` a key at the root of environment `env`, `${env.a.b.KEY}` a key of folder
 * `/a/b` there. This module reads them out of a value and works out what to suggest while one is
 * typed; it knows names only, never values.
 */

export interface SecretReference {
  /** As written, with `${` and `}`. */
  raw: string;
  /** The environment's slug; undefined for the value's own folder. */
  environment: string | undefined;
  /** The folder's path; "" for the value's own folder. */
  secretPath: string;
  secretKey: string;
}

const REFERENCE = /\$\{([^}\s]+)\}/g;

/** Every reference a value holds, in order, repeats included once. */
export function parseReferences(value: string): SecretReference[] {
  const seen = new Set<string>();
  const found: SecretReference[] = [];
  for (const match of value.matchAll(REFERENCE)) {
    const raw = match[0];
    if (seen.has(raw)) continue;
    seen.add(raw);
    const parts = (match[1] as string).split(".");
    const secretKey = parts.pop() as string;
    if (parts.length === 0) {
      found.push({ raw, environment: undefined, secretPath: "", secretKey });
    } else {
      const [environment, ...folders] = parts as [string, ...string[]];
      found.push({ raw, environment, secretPath: `/${folders.join("/")}`, secretKey });
    }
  }
  return found;
}

/** A reference being typed: `${` at `start`, the complete parts before the last dot, and the part typed after it. */
export interface ReferenceQuery {
  start: number;
  segments: string[];
  partial: string;
}

/** The reference being typed just before `cursor`, if the text there is an unclosed `${…`. */
export function referenceQueryAt(value: string, cursor: number): ReferenceQuery | undefined {
  const before = value.slice(0, cursor);
  const start = before.lastIndexOf("${");
  if (start === -1) return undefined;
  const typed = before.slice(start + 2);
  if (/[}\s]/.test(typed)) return undefined;
  const segments = typed.split(".");
  const partial = segments.pop() as string;
  return { start, segments, partial };
}

export interface Suggestion {
  /** What the list shows. */
  label: string;
  kind: "key" | "environment" | "folder";
  /** What replaces the typed part after the last dot: a key closes the reference, the others add a dot. */
  insert: string;
}

/** What the suggestions are drawn from: names only. */
export interface ReferenceNames {
  /** The keys of the value's own folder. */
  localKeys: readonly string[];
  /** The project's environment slugs. */
  environments: readonly string[];
  /** The keys and subfolders of a folder of an environment, once read (undefined while not). */
  folder?: { keys: readonly string[]; folders: readonly string[] } | undefined;
}

const MAX_SUGGESTIONS = 8;

/**
 * What to offer for a reference being typed: with no dot yet, the folder's own keys and the
 * environments; after `env.` (and folders), that folder's keys and subfolders. Names that start
 * with the typed part come first, then names that contain it; case does not matter.
 */
export function suggest(query: ReferenceQuery, names: ReferenceNames): Suggestion[] {
  const candidates: Suggestion[] =
    query.segments.length === 0
      ? [
          ...names.localKeys.map((key) => ({ label: key, kind: "key" as const, insert: `${key}}` })),
          ...names.environments.map((slug) => ({
            label: `${slug}.`,
            kind: "environment" as const,
            insert: `${slug}.`,
          })),
        ]
      : [
          ...(names.folder?.folders ?? []).map((name) => ({
            label: `${name}.`,
            kind: "folder" as const,
            insert: `${name}.`,
          })),
          ...(names.folder?.keys ?? []).map((key) => ({ label: key, kind: "key" as const, insert: `${key}}` })),
        ];
  const typed = query.partial.toLowerCase();
  const starts = candidates.filter((item) => item.label.toLowerCase().startsWith(typed));
  const contains = typed
    ? candidates.filter(
        (item) => !item.label.toLowerCase().startsWith(typed) && item.label.toLowerCase().includes(typed),
      )
    : [];
  return [...starts, ...contains].slice(0, MAX_SUGGESTIONS);
}

/** The folder a query's segments name: its environment and path (undefined with no dot yet). */
export function queryFolder(query: ReferenceQuery): { environment: string; secretPath: string } | undefined {
  const [environment, ...folders] = query.segments;
  if (environment === undefined) return undefined;
  return { environment, secretPath: `/${folders.join("/")}` };
}

/** The value with a suggestion put in place of the part typed after the last dot, and where the cursor goes. */
export function applySuggestion(
  value: string,
  cursor: number,
  query: ReferenceQuery,
  suggestion: Suggestion,
): { value: string; cursor: number } {
  const head = value.slice(0, query.start + 2) + [...query.segments, ""].join(".").slice(0, -1);
  const prefix = query.segments.length > 0 ? `${head}.` : head;
  const next = prefix + suggestion.insert;
  // A closing brace typed already after the cursor is not doubled.
  const rest = value.slice(cursor);
  const tail = suggestion.kind === "key" && rest.startsWith("}") ? rest.slice(1) : rest;
  return { value: next + tail, cursor: next.length };
}
