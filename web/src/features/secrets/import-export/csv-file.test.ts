import { describe, expect, it } from "vitest";
import { csvColumnNames, csvEntries, guessCsvColumns, readCsvTable } from "./csv-file";

const values = (parsed: ReturnType<typeof csvEntries>) =>
  Object.fromEntries(parsed.entries.map((entry) => [entry.secretKey, entry.secretValue]));

describe("reading CSV", () => {
  it("finds a header and preselects its key, value and comment columns", () => {
    const table = readCsvTable('Comment,Secret Key,Value\nfirst,A,1\n,B,"two, with comma"\n');
    const columns = guessCsvColumns(table);
    expect(columns).toEqual({ hasHeader: true, key: 1, value: 2, comment: 0 });
    expect(csvColumnNames(table, true)).toEqual(["Comment", "Secret Key", "Value"]);
    const parsed = csvEntries(table, columns);
    expect(parsed.invalid).toEqual([]);
    expect(parsed.entries).toEqual([
      { secretKey: "A", secretValue: "1", secretComment: "first", line: 2 },
      { secretKey: "B", secretValue: "two, with comma", secretComment: "", line: 3 },
    ]);
  });

  it("reads a table without a header as key, value", () => {
    const table = readCsvTable("A,1\nB,2\n");
    const columns = guessCsvColumns(table);
    expect(columns).toEqual({ hasHeader: false, key: 0, value: 1 });
    expect(csvColumnNames(table, false)).toEqual(["Column 1", "Column 2"]);
    expect(values(csvEntries(table, columns))).toEqual({ A: "1", B: "2" });
  });

  it("lets other columns be picked", () => {
    const table = readCsvTable("x,A,1,one\ny,B,2,two\n");
    expect(values(csvEntries(table, { hasHeader: false, key: 1, value: 3 }))).toEqual({ A: "one", B: "two" });
  });

  it("gives each row the line it starts on, across quoted line breaks and blank lines", () => {
    const table = readCsvTable('key,value\nA,"multi\nline"\n\nB,2\n');
    const parsed = csvEntries(table, guessCsvColumns(table));
    expect(parsed.entries.map(({ secretKey, secretValue, line }) => [secretKey, secretValue, line])).toEqual([
      ["A", "multi\nline", 2],
      ["B", "2", 5],
    ]);
  });

  it("reports bad keys, missing value cells and duplicates with their lines", () => {
    const table = readCsvTable("key,value\nA,1\nbad key,2\nC\nA,3\n,4\n");
    const parsed = csvEntries(table, guessCsvColumns(table));
    expect(values(parsed)).toEqual({ A: "3" });
    expect(parsed.invalid.map(({ line, reason }) => [line, reason])).toEqual([
      [2, "duplicate"],
      [3, "bad-key"],
      [4, "missing-value"],
      [6, "bad-key"],
    ]);
  });

  it("reports an unclosed quote", () => {
    const table = readCsvTable('key,value\nA,1\nB,"never closed\n');
    const parsed = csvEntries(table, guessCsvColumns(table));
    expect(values(parsed)).toEqual({ A: "1" });
    expect(parsed.invalid).toEqual([
      { line: 3, reason: "unterminated-quote", message: "A quoted cell is never closed." },
    ]);
  });
});
