import { importPrecedence } from "@/lib/import-precedence";
import type { FolderSecrets, ImportedSecrets, ListedImportedSecret, ListedSecret } from "./api";
import { indexSecrets, type SecretIndex } from "./secret-filter";

/** Where a secret lives: an environment's slug and a folder's path. */
export interface SecretSource {
  environment: string;
  secretPath: string;
}

/** One row of the secrets table: a secret of the folder itself, or a key one of its imports supplies. */
export interface SecretListRow {
  secretKey: string;
  tags: ListedSecret["tags"];
  secret: ListedSecret | ListedImportedSecret;
  /** The folder the secret lives in when an import supplies it; undefined for the folder's own. */
  importedFrom: SecretSource | undefined;
  /** The imports that also provide this key and lose it to this row, first position first. */
  overrides: readonly SecretSource[];
}

/** A folder's secrets as the page holds them: the list's answer, and the table's rows indexed for the filter. */
export interface FolderListing extends FolderSecrets {
  rows: SecretIndex<SecretListRow>;
  /** How many rows an import supplies. */
  importedCount: number;
}

const NONE: readonly SecretSource[] = [];
const collator = new Intl.Collator("en");

const sourceOf = ({ environment, secretPath }: ImportedSecrets): SecretSource => ({ environment, secretPath });

/**
 * The table's rows: the folder's own secrets, each with the imports it overrides, and every key
 * the folder lacks that an import provides, from the import that wins it (`importPrecedence`,
 * the rule the imports page explains); in key order when imports add any.
 */
export function folderListing({ secrets, imports }: FolderSecrets): FolderListing {
  const precedence = importPrecedence(
    imports,
    (source) => source.secrets.map((secret) => secret.secretKey),
    secrets.map((secret) => secret.secretKey),
  );
  const own = secrets.map(
    (secret): SecretListRow => ({
      secretKey: secret.secretKey,
      tags: secret.tags,
      secret,
      importedFrom: undefined,
      overrides: precedence.get(secret.secretKey)?.overridden.map(sourceOf) ?? NONE,
    }),
  );
  const imported: SecretListRow[] = [];
  for (const source of imports) {
    for (const secret of source.secrets) {
      const wins = precedence.get(secret.secretKey);
      if (wins?.supplier !== source) continue;
      // A key the winning import holds twice (shared and personal) is listed once.
      precedence.delete(secret.secretKey);
      imported.push({
        secretKey: secret.secretKey,
        tags: secret.tags,
        secret,
        importedFrom: sourceOf(source),
        overrides: wins.overridden.map(sourceOf),
      });
    }
  }
  const rows =
    imported.length === 0 ? own : [...own, ...imported].sort((a, b) => collator.compare(a.secretKey, b.secretKey));
  return { secrets, imports, rows: indexSecrets(rows), importedCount: imported.length };
}

/**
 * A row for a secret staged to be created (not on the server yet): the table shows it with the
 * others, marked new, until the save. It has no id, version or dates of its own.
 */
export function stagedRow(
  create: { secretKey: string; secretComment: string },
  folder: { environment: string; secretPath: string },
): SecretListRow {
  const secret: ListedSecret = {
    id: "",
    _id: "",
    workspace: "",
    environment: folder.environment,
    secretPath: folder.secretPath,
    version: 0,
    type: "shared",
    secretKey: create.secretKey,
    secretComment: create.secretComment,
    secretValueHidden: false,
    createdAt: "",
    updatedAt: "",
    tags: [],
  };
  return { secretKey: create.secretKey, tags: [], secret, importedFrom: undefined, overrides: NONE };
}
