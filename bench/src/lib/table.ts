import { type ResultRow, ratioOf } from "./result.ts";

function figure(value: number | undefined): string {
  if (value === undefined) return "—";
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString("en-US");
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** The results as a Markdown table: the form the README's Performance section uses. */
export function renderTable(rows: readonly ResultRow[]): string {
  const lines = [
    "| case | metric | Keyhold | reference | ratio |",
    "|---|---|---:|---|---:|",
    ...rows.map((row) => {
      const ratio = ratioOf(row);
      const reference =
        row.reference === undefined ? "—" : `${figure(row.reference)} (${row.referenceName ?? "floor"})`;
      return `| ${row.case} | ${row.metric} | ${figure(row.keyhold)} | ${reference} | ${ratio === undefined ? "—" : `${ratio.toFixed(2)}x`} |`;
    }),
  ];
  return lines.join("\n");
}
