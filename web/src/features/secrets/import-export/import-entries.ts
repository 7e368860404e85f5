/**
 * What every file reader gives the import: the keys and values it read, each with the line it
 * starts on, and the lines it could not read, each with the reason. Values never appear in an
 * invalid line's report (a line that failed may still hold a secret); its key does when it has one.
 */
export interface ImportEntry {
  secretKey: string;
  secretValue: string;
  /** A comment the file gives the key (`.env` comment lines right above it); undefined leaves the secret's own. */
  secretComment?: string | undefined;
  /** 1-based line of the file where the key is written. */
  line: number;
}

export type InvalidReason =
  | "bad-key"
  | "duplicate"
  | "unterminated-quote"
  | "not-an-assignment"
  | "text-after-quote"
  | "unsupported-value"
  | "missing-value"
  | "syntax";

export interface InvalidLine {
  line: number;
  reason: InvalidReason;
  /** What is wrong, in a sentence, without the line's value. */
  message: string;
  /** The key the line names, when one could be read. */
  secretKey?: string | undefined;
}

export interface ParsedFile {
  entries: ImportEntry[];
  invalid: InvalidLine[];
}

/**
 * The keys an import accepts, in every format: letters, digits, `_`, `.` and `-` (the `.env`
 * key syntax, so that whatever is imported can be exported as `.env` again). The service takes
 * more, but a key with a space or a quote could not be written back to a `.env` file.
 */
export const IMPORT_KEY_PATTERN = /^[A-Za-z0-9_.-]+$/;

export function badKey(line: number, secretKey: string): InvalidLine {
  return {
    line,
    reason: "bad-key",
    secretKey,
    message:
      secretKey === ""
        ? "The key is empty."
        : "A key may hold only letters, digits, underscores (_), dots (.) and hyphens (-).",
  };
}

/**
 * Keeps the last of each key, as `dotenv` and shells read a file that sets a key twice, and
 * reports every earlier one as a duplicate that the later line overrides.
 */
export function keepLastOfEachKey(entries: readonly ImportEntry[], invalid: InvalidLine[]): ImportEntry[] {
  const last = new Map<string, ImportEntry>();
  for (const entry of entries) last.set(entry.secretKey, entry);
  if (last.size === entries.length) return [...entries];
  const kept: ImportEntry[] = [];
  for (const entry of entries) {
    const winner = last.get(entry.secretKey) as ImportEntry;
    if (winner === entry) {
      kept.push(entry);
      continue;
    }
    invalid.push({
      line: entry.line,
      reason: "duplicate",
      secretKey: entry.secretKey,
      message: `${entry.secretKey} is set again on line ${winner.line}, which is the one imported.`,
    });
  }
  return kept;
}

/** Invalid lines in file order. */
export function byLine(invalid: InvalidLine[]): InvalidLine[] {
  return invalid.sort((a, b) => a.line - b.line);
}
