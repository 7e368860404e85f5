import { describe, expect, it } from "vitest";
import { type BenchCase, selectCases } from "./bench-case.ts";

const benchCase = (id: string, onlyWhenNamed?: boolean): BenchCase => ({
  id,
  title: id,
  ...(onlyWhenNamed !== undefined && { onlyWhenNamed }),
  run: async () => [],
});
const cases = [benchCase("service-read"), benchCase("infisical-read", true), benchCase("secrets-list", false)];

describe("selectCases", () => {
  it("runs every case but the named-only ones when none is named", () => {
    expect(selectCases(cases, []).map((c) => c.id)).toEqual(["service-read", "secrets-list"]);
  });

  it("runs a named-only case when it is named, and only the named ones", () => {
    expect(selectCases(cases, ["infisical-read", "service-read"]).map((c) => c.id)).toEqual([
      "service-read",
      "infisical-read",
    ]);
  });

  it("refuses an unknown name, listing the known ones", () => {
    expect(() => selectCases(cases, ["infisical-read", "nope"])).toThrow(
      "unknown case(s): nope; known: service-read, infisical-read, secrets-list",
    );
  });
});
