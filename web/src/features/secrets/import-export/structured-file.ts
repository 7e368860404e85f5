import { isMap, isScalar, isSeq, LineCounter, type Node, type Pair, parseDocument, stringify } from "yaml";
import type { ExportedSecret } from "./dotenv-file";
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
 * JSON and YAML files: one object (mapping) of keys. The rule for what is not a flat string:
 * - A nested object is flattened: its keys are joined to its parent's with `_` and the whole
 *   key is upper-cased, as environment variables are written: `{"db": {"host": "x"}}` gives
 *   `DB_HOST`. Keys at the top level with a value that is not an object are kept as written,
 *   so an exported file (always flat) reads back to the same keys.
 * - Numbers and booleans are imported as written in the file (`port: 05432` gives `05432`,
 *   `debug: yes` gives `yes`), never reformatted.
 * - An array is imported as its JSON text (`["a","b"]`), which most programs can parse again.
 * - `null` (or a YAML key with nothing after it) is invalid: write `""` for an empty value.
 * Both formats are read with the `yaml` package (JSON is YAML), which gives each key's line;
 * JSON is first checked to be strict JSON, so a YAML file read as JSON is reported as such.
 */

interface Walk {
  lines: LineCounter;
  entries: ImportEntry[];
  invalid: InvalidLine[];
}

const lineOf = (walk: Walk, node: Node | null | undefined) =>
  node?.range ? walk.lines.linePos(node.range[0]).line : 1;

function scalarText(node: Node): string | null {
  if (!isScalar(node)) return JSON.stringify(node.toJSON());
  if (node.value === null || node.value === undefined) return null;
  if (typeof node.value === "string") return node.value;
  // A number or boolean, as the file spells it.
  return node.source !== undefined && node.type === "PLAIN" ? String(node.source) : String(node.value);
}

function walkMap(walk: Walk, pairs: readonly Pair[], prefix: string | undefined) {
  for (const pair of pairs) {
    const keyNode = pair.key as Node | null;
    const line = lineOf(walk, keyNode);
    const name = isScalar(keyNode) ? String(keyNode.value ?? "") : JSON.stringify(keyNode?.toJSON() ?? "");
    const value = pair.value as Node | null;
    if (isMap(value)) {
      walkMap(walk, value.items as Pair[], prefix === undefined ? name : `${prefix}_${name}`);
      continue;
    }
    const secretKey = prefix === undefined ? name : `${prefix}_${name}`.toUpperCase();
    if (!IMPORT_KEY_PATTERN.test(secretKey)) {
      walk.invalid.push(badKey(line, secretKey));
      continue;
    }
    const text = value && (isScalar(value) || isSeq(value)) ? scalarText(value) : null;
    if (text === null) {
      walk.invalid.push({
        line,
        reason: "missing-value",
        secretKey,
        message: 'The key has no value (null); write "" for an empty value.',
      });
      continue;
    }
    walk.entries.push({ secretKey, secretValue: text, line });
  }
}

/**
 * The line of a JSON syntax error: the one `JSON.parse` names ("line N" or "position N"), else
 * the one the YAML reader finds (engines word the message differently, some without a place), else 1.
 */
function jsonErrorLine(text: string, message: string): number {
  const line = /line (\d+)/.exec(message);
  if (line) return Number(line[1]);
  const position = /position (\d+)/.exec(message);
  if (position) return text.slice(0, Number(position[1])).split("\n").length;
  return parseDocument(text, { prettyErrors: true }).errors[0]?.linePos?.[0].line ?? 1;
}

function readMapping(text: string, format: "json" | "yaml"): ParsedFile {
  const walk: Walk = { lines: new LineCounter(), entries: [], invalid: [] };
  const syntax = (line: number, message: string): ParsedFile => ({
    entries: [],
    invalid: [{ line, reason: "syntax", message }],
  });
  if (format === "json") {
    try {
      JSON.parse(text);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return syntax(jsonErrorLine(text, message), `This is not valid JSON: ${message}`);
    }
  }
  const doc = parseDocument(text, { lineCounter: walk.lines, uniqueKeys: false, schema: "core", prettyErrors: false });
  const [error] = doc.errors;
  if (error) {
    const line = error.linePos?.[0].line ?? 1;
    return syntax(line, `This is not valid YAML: ${error.message.split("\n")[0]}`);
  }
  if (doc.contents === null) return { entries: [], invalid: [] };
  if (!isMap(doc.contents)) {
    return syntax(lineOf(walk, doc.contents), "The file must hold one object of keys and values.");
  }
  walkMap(walk, doc.contents.items as Pair[], undefined);
  const kept = keepLastOfEachKey(walk.entries, walk.invalid);
  return { entries: kept, invalid: byLine(walk.invalid) };
}

export const parseJson = (text: string) => readMapping(text, "json");
export const parseYaml = (text: string) => readMapping(text, "yaml");

const flat = (secrets: readonly ExportedSecret[]) =>
  Object.fromEntries(secrets.map(({ secretKey, secretValue }) => [secretKey, secretValue]));

/** The secrets as one flat JSON object, two-space indented. */
export function formatJson(secrets: readonly ExportedSecret[]): string {
  return `${JSON.stringify(flat(secrets), null, 2)}\n`;
}

/**
 * The secrets as one flat YAML mapping; strings that YAML would read as something else
 * (`"true"`, `"05432"`) are quoted, and multiline values are block scalars.
 */
export function formatYaml(secrets: readonly ExportedSecret[]): string {
  return secrets.length === 0 ? "{}\n" : stringify(flat(secrets), { lineWidth: 0 });
}
