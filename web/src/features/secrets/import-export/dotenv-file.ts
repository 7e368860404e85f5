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
 * `.env` files, read and written by the rules of the `dotenv` package, with three differences
 * that make the reader safer for secrets (each is tested):
 * - `#` starts a comment in an unquoted value only after whitespace (`PASS=a#1` keeps `a#1`),
 *   as Docker Compose and shells read it; `dotenv` would cut the value at the `#`.
 * - In double quotes, `\"`, `\\` and `\t` are unescaped too (besides `\n` and `\r`).
 * - A quote that is never closed, or text after a closing quote, is reported as an invalid
 *   line (and reading goes on at the next line) instead of being read into a value.
 * Comment lines right above a key (no blank line between) are that key's comment, one line each.
 */

const QUOTES = new Set(['"', "'", "`"]);

/** Where the quote opened at `from` closes in `text`, or -1; in double quotes a backslash escapes the next character. */
function closingQuote(text: string, quote: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (char === "\\" && quote === '"') i++;
    else if (char === quote) return i;
  }
  return -1;
}

const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };

function unescapeDoubleQuoted(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\(.)/gs, (whole, char: string) => ESCAPES[char] ?? whole);
}

/** Whether what follows a closing quote may be ignored: nothing, or a comment. */
const isIgnorable = (rest: string) => {
  const trimmed = rest.trim();
  return trimmed === "" || trimmed.startsWith("#");
};

const MESSAGES = {
  "unterminated-quote": "The value's opening quote is never closed.",
  "text-after-quote": "There is text after the value's closing quote.",
} as const;

interface ValueRead {
  value: string;
  /** Index of the last line the value takes. */
  lastLine: number;
}

/** Reads the value that starts with `first` (the text after `=`) on line `index`, across lines for a quote. */
function readValue(lines: readonly string[], index: number, first: string): ValueRead | keyof typeof MESSAGES {
  const start = first.trimStart();
  const quote = start[0];
  if (quote === undefined || !QUOTES.has(quote)) {
    const comment = first.search(/\s#/);
    return { value: (comment >= 0 ? first.slice(0, comment) : first).trim(), lastLine: index };
  }
  let text = start;
  let close = closingQuote(text, quote, 1);
  let last = index;
  while (close < 0 && last + 1 < lines.length) {
    last++;
    const searchFrom = text.length + 1;
    text = `${text}\n${lines[last]}`;
    close = closingQuote(text, quote, searchFrom);
  }
  if (close < 0) return "unterminated-quote";
  if (!isIgnorable(text.slice(close + 1))) {
    // A quote closed on a later line with text after it was most likely never meant to span lines.
    return last === index ? "text-after-quote" : "unterminated-quote";
  }
  const inner = text.slice(1, close);
  return { value: quote === '"' ? unescapeDoubleQuoted(inner) : inner, lastLine: last };
}

export function parseDotenv(text: string): ParsedFile {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const entries: ImportEntry[] = [];
  const invalid: InvalidLine[] = [];
  let comment: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = index + 1;
    const text = (lines[index] as string).trimStart();
    const trimmed = text.trimEnd();
    if (trimmed === "") {
      comment = [];
      continue;
    }
    if (trimmed.startsWith("#")) {
      const body = trimmed.slice(1);
      comment.push(body.startsWith(" ") ? body.slice(1) : body);
      continue;
    }
    const secretComment = comment.length > 0 ? comment.join("\n") : undefined;
    comment = [];
    const equals = text.indexOf("=");
    if (equals < 0) {
      invalid.push({ line, reason: "not-an-assignment", message: "The line is not of the form KEY=value." });
      continue;
    }
    const secretKey = text
      .slice(0, equals)
      .replace(/^export\s+/, "")
      .trim();
    const read = readValue(lines, index, text.slice(equals + 1));
    if (typeof read === "string") {
      invalid.push({ line, reason: read, secretKey, message: MESSAGES[read] });
      continue;
    }
    index = read.lastLine;
    if (!IMPORT_KEY_PATTERN.test(secretKey)) {
      invalid.push(badKey(line, secretKey));
      continue;
    }
    entries.push({ secretKey, secretValue: read.value, secretComment, line });
  }
  const kept = keepLastOfEachKey(entries, invalid);
  return { entries: kept, invalid: byLine(invalid) };
}

/** A value that needs no quotes: read back exactly as written, by this reader, `dotenv` and shells. */
const PLAIN = /^[\w.,:/@%+=?&~^*-]*$/;

/**
 * A value as `.env` text that reads back to exactly the value: plain when it can be, else in
 * single quotes (no escapes, may span lines), else double quotes when it holds no backslash,
 * else backticks, else double quotes with escapes.
 */
export function quoteDotenvValue(value: string): string {
  if (PLAIN.test(value)) return value;
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"') && !value.includes("\\")) return `"${value}"`;
  if (!value.includes("`")) return `\`${value}\``;
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

export interface ExportedSecret {
  secretKey: string;
  secretValue: string;
  secretComment?: string | undefined;
}

/** The secrets as a `.env` file: each comment as `#` lines right above its key (a blank line before it). */
export function formatDotenv(secrets: readonly ExportedSecret[]): string {
  const out: string[] = [];
  for (const { secretKey, secretValue, secretComment } of secrets) {
    if (secretComment) {
      if (out.length > 0) out.push("");
      for (const line of secretComment.split(/\r\n|\r|\n/)) out.push(line === "" ? "#" : `# ${line}`);
    }
    out.push(`${secretKey}=${quoteDotenvValue(secretValue)}`);
  }
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}
