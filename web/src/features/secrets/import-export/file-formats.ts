import { readCsvTable } from "./csv-file";
import { type ExportedSecret, formatDotenv, parseDotenv } from "./dotenv-file";
import { formatJson, formatYaml, parseJson, parseYaml } from "./structured-file";

/** The formats a file is imported from; CSV needs its columns chosen, so it is read in two steps. */
export const importFormats = ["env", "json", "yaml", "csv"] as const;
export type ImportFormat = (typeof importFormats)[number];

export const exportFormats = ["env", "json", "yaml"] as const;
export type ExportFormat = (typeof exportFormats)[number];

export const formatLabels: Record<ImportFormat, string> = { env: ".env", json: "JSON", yaml: "YAML", csv: "CSV" };

export const textParsers = { env: parseDotenv, json: parseJson, yaml: parseYaml } as const;
export { readCsvTable };

/** The format a file's name says, if it says one. */
export function formatOfFileName(name: string): ImportFormat | undefined {
  const lower = name.toLowerCase();
  if (lower.endsWith(".json")) return "json";
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return "yaml";
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".env") || lower.startsWith(".env") || lower.endsWith(".txt")) return "env";
  return undefined;
}

/**
 * The format pasted text most likely is, for when nobody chose one: an object is JSON, `KEY=`
 * lines are `.env`, `key: value` lines YAML, comma- or semicolon-separated lines CSV.
 */
export function guessFormat(text: string): ImportFormat | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const first = lines[0];
  if (first === undefined) return undefined;
  if (first.startsWith("{")) return "json";
  const share = (test: RegExp) => lines.filter((line) => test.test(line)).length / lines.length;
  if (share(/^(export\s+)?[\w.-]+\s*=/) >= 0.5) return "env";
  if (share(/^[\w.-]+:(\s|$)/) >= 0.5 || first === "---") return "yaml";
  if (share(/[,;\t]/) >= 0.5) return "csv";
  return undefined;
}

const writers: Record<ExportFormat, (secrets: readonly ExportedSecret[]) => string> = {
  env: formatDotenv,
  json: formatJson,
  yaml: formatYaml,
};

const mediaTypes: Record<ExportFormat, string> = {
  env: "text/plain",
  json: "application/json",
  yaml: "application/yaml",
};

export function exportFile(format: ExportFormat, secrets: readonly ExportedSecret[]) {
  return { text: writers[format](secrets), type: mediaTypes[format] };
}

/** The downloaded file's name: `<environment>.env`, `<environment>-<folder>.json`… */
export function exportFileName(format: ExportFormat, environment: string, secretPath: string): string {
  const folder = secretPath
    .split("/")
    .filter(Boolean)
    .join("-")
    .replace(/[^\w.-]/g, "_");
  const base = folder ? `${environment}-${folder}` : environment;
  return format === "env" ? `${base}.env` : `${base}.${format}`;
}
