import { describe, expect, it } from "vitest";
import { textDiff } from "./text-diff";

const summary = (before: string, after: string) =>
  textDiff(before, after).lines.map(
    (line) =>
      `${line.kind}:${line.before ?? "-"}:${line.after ?? "-"}:${line.segments.map((s) => (s.changed ? `[${s.text}]` : s.text)).join("")}`,
  );

describe("textDiff", () => {
  it("numbers unchanged, removed and added lines on their own side", () => {
    expect(summary("host=db\nport=5432\nuser=app", "host=db\nuser=app\nssl=on")).toEqual([
      "same:1:1:host=db",
      "removed:2:-:port=5432",
      "same:3:2:user=app",
      "added:-:3:ssl=on",
    ]);
  });

  it("marks the words that changed when a line is replaced by another", () => {
    const diff = textDiff("postgres://app:old-pass@db/main", "postgres://app:new-pass@db/main");
    expect(diff.added).toBe(1);
    expect(diff.removed).toBe(1);
    expect(summary("token abc def", "token xyz def")).toEqual([
      "removed:1:-:token [abc] def",
      "added:-:1:token [xyz] def",
    ]);
  });

  it("pairs a block of replaced lines line by line", () => {
    expect(summary("a 1\nb 2\nc", "a 9\nb 8\nc")).toEqual([
      "removed:1:-:a [1]",
      "removed:2:-:b [2]",
      "added:-:1:a [9]",
      "added:-:2:b [8]",
      "same:3:3:c",
    ]);
  });

  it("reports no change for equal texts, and a whole new text as added", () => {
    const same = textDiff("one\ntwo\n", "one\ntwo\n");
    expect(same.added + same.removed).toBe(0);
    expect(same.lines.map((l) => l.kind)).toEqual(["same", "same"]);
    expect(summary("", "first\nsecond")).toEqual(["added:-:1:first", "added:-:2:second"]);
  });

  it("compares the last line without its newline, and says when only that newline changed", () => {
    const diff = textDiff("a\nb", "a\nb\n");
    expect(diff.added + diff.removed).toBe(0);
    expect(diff.newlineAtEndChanged).toBe(true);
    expect(textDiff("a\n", "a\n").newlineAtEndChanged).toBe(false);
  });
});
