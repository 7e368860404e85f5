import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./safe-redirect";

const fallback = "/identities";

describe("safeReturnPath", () => {
  it("keeps a same-origin path with its query and hash", () => {
    expect(safeReturnPath("/identities/abc?tab=edit#top", fallback)).toBe("/identities/abc?tab=edit#top");
  });

  it.each([
    ["missing", null],
    ["empty", ""],
    ["absolute URL", "https://evil.example/"],
    ["protocol-relative", "//evil.example/path"],
    ["backslash trick", "/\\evil.example"],
    ["javascript URL", "javascript:alert(1)"],
    ["relative without slash", "identities"],
    ["embedded tab", "/\t/evil.example"],
  ])("falls back for a %s value", (_label, value) => {
    expect(safeReturnPath(value, fallback)).toBe(fallback);
  });
});
