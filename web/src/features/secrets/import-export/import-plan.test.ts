import { describe, expect, it } from "vitest";
import { formatDotenv, parseDotenv } from "./dotenv-file";
import { type CurrentSecret, planImport, upsertItems } from "./import-plan";
import { formatJson, formatYaml, parseJson, parseYaml } from "./structured-file";

const current = (secretKey: string, secretValue: string | undefined, secretComment = ""): CurrentSecret => ({
  secretKey,
  secretValue,
  secretComment,
});

describe("planning an import", () => {
  it("sorts the file's keys into new, changed and unchanged, and counts the invalid lines", () => {
    const parsed = parseDotenv("SAME=1\nVALUE=new\nADDED=x\nbad key=1\n# new note\nNOTE=n\nHIDDEN=h");
    const plan = planImport(parsed, [
      current("SAME", "1"),
      current("VALUE", "old"),
      current("NOTE", "n", "old note"),
      current("HIDDEN", undefined),
      current("UNTOUCHED", "u"),
    ]);
    expect(plan.counts).toEqual({ new: 1, changed: 3, unchanged: 1, invalid: 1 });
    expect(
      plan.items.map(({ secretKey, status, valueChanged, commentChanged, valueUnknown }) => ({
        secretKey,
        status,
        valueChanged,
        commentChanged,
        valueUnknown,
      })),
    ).toEqual([
      { secretKey: "SAME", status: "unchanged", valueChanged: false, commentChanged: false, valueUnknown: false },
      { secretKey: "VALUE", status: "changed", valueChanged: true, commentChanged: false, valueUnknown: false },
      { secretKey: "ADDED", status: "new", valueChanged: true, commentChanged: false, valueUnknown: false },
      { secretKey: "NOTE", status: "changed", valueChanged: false, commentChanged: true, valueUnknown: false },
      { secretKey: "HIDDEN", status: "changed", valueChanged: true, commentChanged: false, valueUnknown: true },
    ]);
  });

  it("keeps no value of the folder in the plan", () => {
    const plan = planImport(parseDotenv("A=new"), [current("A", "the-old-value")]);
    expect(JSON.stringify(plan)).not.toContain("the-old-value");
  });

  it("sends the new and changed keys in one upsert, with a comment only where the file gives one", () => {
    const plan = planImport(parseDotenv("SAME=1\nVALUE=new\n# why\nADDED=x"), [
      current("SAME", "1"),
      current("VALUE", "old", "kept"),
    ]);
    expect(upsertItems(plan)).toEqual([
      { secretKey: "VALUE", secretValue: "new" },
      { secretKey: "ADDED", secretValue: "x", secretComment: "why" },
    ]);
  });

  const folder = [
    { secretKey: "A", secretValue: "plain", secretComment: "" },
    { secretKey: "B", secretValue: "multi\nline 'quoted' \"both\"", secretComment: "a comment\nof two lines" },
    { secretKey: "C", secretValue: "", secretComment: "" },
    { secretKey: "D", secretValue: "05432", secretComment: "" },
    { secretKey: "E", secretValue: "${env.prod.KEY} # not a comment", secretComment: "" },
  ];

  it.each([
    ["env", formatDotenv, parseDotenv],
    ["json", formatJson, parseJson],
    ["yaml", formatYaml, parseYaml],
  ] as const)("finds everything unchanged when the folder's own %s export is imported again", (_, write, read) => {
    const plan = planImport(read(write(folder)), folder);
    expect(plan.counts).toEqual({ new: 0, changed: 0, unchanged: folder.length, invalid: 0 });
    expect(upsertItems(plan)).toEqual([]);
  });
});
