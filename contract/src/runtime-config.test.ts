import { describe, expect, it } from "vitest";
import { ConfigError, requestIdFrom, wantsPrettyLogs, withFileVariables } from "./runtime-config.ts";

describe("wantsPrettyLogs", () => {
  it.each([
    [undefined, "development", true, true],
    [undefined, "development", false, false],
    [undefined, "test", true, true],
    [undefined, "production", true, false],
    ["json", "development", true, false],
    ["pretty", "production", false, true],
  ] as const)("LOG_FORMAT=%s, NODE_ENV=%s, terminal %s → pretty %s", (logFormat, nodeEnv, isTty, pretty) => {
    expect(wantsPrettyLogs({ logFormat, nodeEnv }, isTty)).toBe(pretty);
  });
});

describe("requestIdFrom", () => {
  it("keeps a plausible id and makes one otherwise", () => {
    for (const id of [
      "4f2c9a1e-7b3d-4c5e-9f10-a1b2c3d4e5f6",
      "req-AbC123xyz00000",
      "0123456789abcdef0123456789abcdef",
    ]) {
      expect(requestIdFrom(id)).toBe(id);
    }
    for (const header of [undefined, "", " x", "a b", "-leading", "x".repeat(129), ["a", "b"], "id\u0000"]) {
      expect(requestIdFrom(header as string | string[] | undefined)).toMatch(/^req-[A-Za-z0-9]{14}$/);
    }
  });
});

describe("withFileVariables", () => {
  const files: Record<string, string> = { "/run/secrets/key": "abc\n", "/run/secrets/crlf": "abc\r\n" };
  const read = (file: string) => {
    const text = files[file];
    if (text === undefined) throw Object.assign(new Error("no such file"), { code: "ENOENT" });
    return text;
  };

  it("reads <NAME>_FILE into <NAME> without the final line break, and leaves other variables", () => {
    expect(withFileVariables({ KEY_FILE: "/run/secrets/key", OTHER: "1" }, ["KEY"], read)).toEqual({
      KEY_FILE: "/run/secrets/key",
      KEY: "abc",
      OTHER: "1",
    });
    expect(withFileVariables({ KEY_FILE: "/run/secrets/crlf" }, ["KEY"], read).KEY).toBe("abc");
    expect(withFileVariables({ KEY: "direct" }, ["KEY"], read).KEY).toBe("direct");
  });

  it("refuses both forms at once and a file it cannot read, naming each", () => {
    expect(() => withFileVariables({ KEY: "x", KEY_FILE: "/run/secrets/key" }, ["KEY"], read)).toThrow(
      new ConfigError("Invalid configuration: KEY_FILE: set either KEY or KEY_FILE, not both"),
    );
    expect(() => withFileVariables({ A_FILE: "/nope", B_FILE: "/gone" }, ["A", "B"], read)).toThrow(
      "Invalid configuration: A_FILE: cannot read /nope (ENOENT); B_FILE: cannot read /gone (ENOENT)",
    );
  });
});
