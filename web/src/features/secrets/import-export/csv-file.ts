import Papa from "papaparse";
import {
  badKey,
  byLine,
  IMPORT_KEY_PATTERN,
  type ImportEntry,
  type InvalidLine,
  keepLastOfEachKey,
  type ParsedFile,
} from "./import-entries";

/*
 * CSV files, read with `papaparse`: the person picks which column holds the keys and which the
 * values (and, optionally, comments). The first row is taken for a header when one of its
 * cells names a key, value or comment column ("key", "name", "secret key", "value"…); the
 * columns are then preselected from it.
 */

export interface CsvTable {
  rows: string[][];
  /** The 1-based line each row starts on (a quoted cell may span lines). */
  lines: number[];
  /** Rows papaparse could not read, such as an unclosed quote. */
  invalid: InvalidLine[];
}

export interface CsvColumns {
  hasHeader: boolean;
  key: number;
  value: number;
  /** The comment column, or undefined for none. */
  comment?: number | undefined;
}

export function readCsvTable(text: string): CsvTable {
  const source = text.replace(/^\uFEFF/, "");
  const rows: string[][] = [];
  const lines: number[] = [];
  const invalid: InvalidLine[] = [];
  // papaparse reports where each row ends (the cursor); a row starts where the last one ended.
  let rowStart = 0;
  let line = 1;
  Papa.parse<string[]>(source, {
    skipEmptyLines: "greedy",
    step: (result) => {
      let i = rowStart;
      // Blank lines skipped before the row, then the row itself.
      for (; i < result.meta.cursor && /\s/.test(source[i] as string); i++) if (source[i] === "\n") line++;
      const rowLine = line;
      for (; i < result.meta.cursor; i++) if (source[i] === "\n") line++;
      rowStart = result.meta.cursor;
      // Guessing the delimiter fails on a table of one column; papaparse then takes a comma, which is right.
      const error = result.errors.find((found) => found.code !== "UndetectableDelimiter");
      if (error) {
        invalid.push({
          line: rowLine,
          reason: error.code === "MissingQuotes" ? "unterminated-quote" : "syntax",
          message: error.code === "MissingQuotes" ? "A quoted cell is never closed." : `${error.message}.`,
        });
        return;
      }
      rows.push(result.data);
      lines.push(rowLine);
    },
  });
  return { rows, lines, invalid };
}

const KEY_HEADERS = new Set(["key", "name", "secretkey", "secretname", "variable", "envvar", "secret"]);
const VALUE_HEADERS = new Set(["value", "secretvalue", "val"]);
const COMMENT_HEADERS = new Set(["comment", "secretcomment", "description", "note", "notes"]);
const normalise = (cell: string) => cell.toLowerCase().replace(/[\s_-]/g, "");

/** The columns to preselect: from a header when the first row is one, else key in the first, value in the second. */
export function guessCsvColumns(table: CsvTable): CsvColumns {
  const first = (table.rows[0] ?? []).map(normalise);
  const find = (names: Set<string>) => {
    const index = first.findIndex((cell) => names.has(cell));
    return index >= 0 ? index : undefined;
  };
  const key = find(KEY_HEADERS);
  const value = find(VALUE_HEADERS);
  const comment = find(COMMENT_HEADERS);
  const hasHeader = key !== undefined || value !== undefined || comment !== undefined;
  if (!hasHeader) return { hasHeader, key: 0, value: 1 };
  const keyColumn = key ?? (value === 0 ? 1 : 0);
  const valueColumn = value ?? first.findIndex((_, index) => index !== keyColumn && index !== comment);
  return { hasHeader, key: keyColumn, value: Math.max(valueColumn, 0), comment };
}

/** The names of the table's columns: the header's cells, or "Column 1", "Column 2"… */
export function csvColumnNames(table: CsvTable, hasHeader: boolean): string[] {
  const width = Math.max(0, ...table.rows.map((row) => row.length));
  const header = hasHeader ? (table.rows[0] ?? []) : [];
  return Array.from({ length: width }, (_, index) => header[index]?.trim() || `Column ${index + 1}`);
}

export function csvEntries(table: CsvTable, columns: CsvColumns): ParsedFile {
  const entries: ImportEntry[] = [];
  const invalid = [...table.invalid];
  for (let index = columns.hasHeader ? 1 : 0; index < table.rows.length; index++) {
    const row = table.rows[index] as string[];
    const line = table.lines[index] as number;
    const secretKey = (row[columns.key] ?? "").trim();
    if (!IMPORT_KEY_PATTERN.test(secretKey)) {
      invalid.push(badKey(line, secretKey));
      continue;
    }
    const secretValue = row[columns.value];
    if (secretValue === undefined) {
      invalid.push({ line, reason: "missing-value", secretKey, message: "The row has no cell in the value column." });
      continue;
    }
    const comment = columns.comment === undefined ? undefined : row[columns.comment];
    entries.push({ secretKey, secretValue, secretComment: comment, line });
  }
  const kept = keepLastOfEachKey(entries, invalid);
  return { entries: kept, invalid: byLine(invalid) };
}
