import { describe, expect, it } from "vitest";
import { exportFileName, formatOfFileName, guessFormat } from "./file-formats";

describe("telling a file's format", () => {
  it.each([
    ["production.env", "env"],
    [".env.local", "env"],
    ["config.JSON", "json"],
    ["values.yml", "yaml"],
    ["values.yaml", "yaml"],
    ["sheet.csv", "csv"],
    ["secrets", undefined],
  ])("from the name %s", (name, format) => {
    expect(formatOfFileName(name)).toBe(format);
  });

  it.each([
    ['{\n  "A": "1"\n}', "json"],
    ["# comment\nexport A=1\nB = two\n", "env"],
    ["A: 1\ndb:\n  host: x\n", "yaml"],
    ["---\nA: 1", "yaml"],
    ["key,value\nA,1\nB,2", "csv"],
    ["key;value\nA;1", "csv"],
    ["", undefined],
    ["just words", undefined],
  ])("from pasted text %j", (text, format) => {
    expect(guessFormat(text)).toBe(format);
  });
});

describe("naming an export", () => {
  it("names it after the environment and the folder", () => {
    expect(exportFileName("env", "dev", "/")).toBe("dev.env");
    expect(exportFileName("json", "prod", "/app/api")).toBe("prod-app-api.json");
    expect(exportFileName("yaml", "staging", "/we ird")).toBe("staging-we_ird.yaml");
  });
});
