import { importPrecedence } from "@/lib/import-precedence";
import { byPosition, moveTo } from "./positions";
import { type ImportedFolder, type ImportRow, keysByImport, sourceLabel } from "./provided-keys";

/** Where a key's value is read from: an import (by id and `env:/path`), the folder's own secret, or nowhere. */
export type KeySource = { kind: "import"; id: string; label: string } | { kind: "folder" } | { kind: "none" };

export interface KeyChange {
  key: string;
  from: KeySource;
  to: KeySource;
}

/** A change to the order before it is saved: one import moved to a position, or one removed. */
export type ImportChange = { kind: "move"; id: string; position: number } | { kind: "remove"; id: string };

/** Who supplies each key some import provides, under the server's rule (`importPrecedence`). */
function suppliers(
  ordered: readonly ImportRow[],
  keysOf: Map<string, string[] | undefined>,
  localKeys: readonly string[],
): Map<string, KeySource> {
  const precedence = importPrecedence(ordered, (row) => keysOf.get(row.id) ?? [], localKeys);
  const result = new Map<string, KeySource>();
  for (const [key, { supplier }] of precedence) {
    result.set(key, supplier ? { kind: "import", id: supplier.id, label: sourceLabel(supplier) } : { kind: "folder" });
  }
  return result;
}

const sameSource = (a: KeySource, b: KeySource) =>
  a.kind === b.kind && (a.kind !== "import" || (b.kind === "import" && a.id === b.id));

/**
 * The keys whose value would come from somewhere else after `change`, and from where, sorted by
 * key. Names and sources only: a key read from another import reads another secret (another id),
 * so its value may differ; values are never needed to tell. Undefined while any import's keys are
 * unknown (the preview would be a guess).
 */
export function previewImportChange(
  imports: readonly ImportRow[],
  folders: readonly ImportedFolder[] | undefined,
  localKeys: readonly string[],
  change: ImportChange,
): KeyChange[] | undefined {
  const before = byPosition(imports);
  const keysOf = keysByImport(before, folders);
  if ([...keysOf.values()].some((keys) => keys === undefined)) return undefined;
  const after =
    change.kind === "move" ? moveTo(before, change.id, change.position) : before.filter((row) => row.id !== change.id);
  const was = suppliers(before, keysOf, localKeys);
  const will = suppliers(after, keysOf, localKeys);
  const own = new Set(localKeys);
  const changes: KeyChange[] = [];
  for (const [key, from] of was) {
    // A key no import provides any more is read from the folder's own secret, if it has one.
    const to = will.get(key) ?? (own.has(key) ? { kind: "folder" } : { kind: "none" });
    if (!sameSource(from, to)) changes.push({ key, from, to });
  }
  return changes.sort((a, b) => a.key.localeCompare(b.key));
}

/** How a source reads in the preview: `staging:/db`, "this folder's own secret", "nowhere". */
export function keySourceText(source: KeySource): string {
  if (source.kind === "import") return source.label;
  return source.kind === "folder" ? "this folder's own secret" : "nowhere (no longer readable here)";
}
