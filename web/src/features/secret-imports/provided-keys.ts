import { importPrecedence, importSourceLabel } from "@/lib/import-precedence";
import { byPosition } from "./positions";

/** An import as the list shows it: where it reads from and its place in the order. */
export interface ImportRow {
  id: string;
  position: number;
  importPath: string;
  importEnv: { slug: string; name: string };
}

/** What the server reports one import brings in (the secrets list with imports included). */
export interface ImportedFolder {
  environment: string;
  secretPath: string;
  secrets: readonly { secretKey: string }[];
}

/**
 * Who supplies a key an import provides: this import (`used`), the folder's own secret of the
 * same name (`local`, local secrets always win) or a later import (`import`, carrying its id).
 */
export type KeyWinner = { kind: "used" } | { kind: "local" } | { kind: "import"; importId: string };

export interface ProvidedKey {
  key: string;
  winner: KeyWinner;
}

/** The keys each import brings in, sorted; undefined for an import the server reported nothing about. */
export function keysByImport(
  imports: readonly ImportRow[],
  folders: readonly ImportedFolder[] | undefined,
): Map<string, string[] | undefined> {
  const keysOf = new Map<string, string[] | undefined>();
  for (const row of imports) {
    const folder = folders?.find((f) => f.environment === row.importEnv.slug && f.secretPath === row.importPath);
    keysOf.set(row.id, folder ? [...new Set(folder.secrets.map((s) => s.secretKey))].sort() : undefined);
  }
  return keysOf;
}

/** Each import's keys, with who supplies each (`importPrecedence`: own secrets, then the last import). */
export function providedKeys(
  imports: readonly ImportRow[],
  folders: readonly ImportedFolder[] | undefined,
  localKeys: readonly string[],
): Map<string, ProvidedKey[] | undefined> {
  const ordered = byPosition(imports);
  const keysOf = keysByImport(ordered, folders);

  const precedence = importPrecedence(ordered, (row) => keysOf.get(row.id) ?? [], localKeys);
  const result = new Map<string, ProvidedKey[] | undefined>();
  for (const row of ordered) {
    const keys = keysOf.get(row.id);
    result.set(
      row.id,
      keys?.map((key): ProvidedKey => {
        const by = precedence.get(key)?.supplier;
        if (by === undefined) return { key, winner: { kind: "local" } };
        return { key, winner: by === row ? { kind: "used" } : { kind: "import", importId: by.id } };
      }),
    );
  }
  return result;
}

/** A short name for an import's source, e.g. `staging:/db`. */
export function sourceLabel(row: Pick<ImportRow, "importEnv" | "importPath">): string {
  return importSourceLabel(row.importEnv.slug, row.importPath);
}
