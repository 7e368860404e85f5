import { describe, expect, it } from "vitest";
import { LONE_SURROGATE_MESSAGE, NUL_CHARACTER_MESSAGE, unstorableTextIssues } from "./storable-text.ts";

describe("unstorableTextIssues", () => {
  it("keeps every other character: control characters, line breaks, emoji, U+FFFF", () => {
    const controls = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join("");
    expect(unstorableTextIssues({ value: `${controls}\x7f`, note: "line\nbreak\r\n\ttab", emoji: "🔑 é ￿" })).toEqual(
      [],
    );
    expect(unstorableTextIssues(undefined)).toEqual([]);
    expect(unstorableTextIssues([1, true, null, { a: 2 }])).toEqual([]);
  });

  it("names each string holding NUL by its path, at any depth, keys included", () => {
    expect(
      unstorableTextIssues({
        workspaceId: "\0",
        tags: ["ok", "a\0b"],
        permissions: [{ conditions: { "env\0": "dev", secretPath: { $glob: "/x\0" } } }],
      }),
    ).toEqual([
      { code: "custom", path: ["workspaceId"], message: NUL_CHARACTER_MESSAGE },
      { code: "custom", path: ["permissions", 0, "conditions", "env\0"], message: NUL_CHARACTER_MESSAGE },
      { code: "custom", path: ["permissions", 0, "conditions", "secretPath", "$glob"], message: NUL_CHARACTER_MESSAGE },
      { code: "custom", path: ["tags", 1], message: NUL_CHARACTER_MESSAGE },
    ]);
    expect(unstorableTextIssues("\0")).toEqual([{ code: "custom", path: [], message: NUL_CHARACTER_MESSAGE }]);
  });

  it.each(["\uD800", "a\uDBFFb", "\uDC00", "x\uDFFF", "🔑\uD83D"])("refuses the unpaired surrogate in %j", (text) => {
    expect(unstorableTextIssues({ name: text })).toEqual([
      { code: "custom", path: ["name"], message: LONE_SURROGATE_MESSAGE },
    ]);
  });

  it("walks a body nested deeper than the call stack", () => {
    let deep: unknown = "\0";
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const [issue] = unstorableTextIssues(deep);
    expect(issue?.path).toHaveLength(200_000);
  });
});
