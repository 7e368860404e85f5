import { describe, expect, it } from "vitest";
import { formatJson, formatYaml, parseJson, parseYaml } from "./structured-file";

const values = (parsed: ReturnType<typeof parseJson>) =>
  Object.fromEntries(parsed.entries.map((entry) => [entry.secretKey, entry.secretValue]));

describe("reading JSON", () => {
  it("keeps top-level keys as written and flattens nested objects to upper-case keys joined with _", () => {
    const parsed = parseJson(
      JSON.stringify(
        { apiKey: "k", db: { host: "db.internal", Port: 5432, replica: { url: "r" } }, empty: {} },
        null,
        2,
      ),
    );
    expect(parsed.invalid).toEqual([]);
    expect(values(parsed)).toEqual({ apiKey: "k", DB_HOST: "db.internal", DB_PORT: "5432", DB_REPLICA_URL: "r" });
    expect(parsed.entries.map((entry) => [entry.secretKey, entry.line])).toEqual([
      ["apiKey", 2],
      ["DB_HOST", 4],
      ["DB_PORT", 5],
      ["DB_REPLICA_URL", 7],
    ]);
  });

  it("keeps numbers and booleans as written, and imports arrays as their JSON text", () => {
    const parsed = parseJson('{"A": 1.50, "B": true, "C": -0, "D": ["x", 2, {"y": null}], "E": "\\u00e9\\n"}');
    expect(values(parsed)).toEqual({ A: "1.50", B: "true", C: "-0", D: '["x",2,{"y":null}]', E: "é\n" });
  });

  it("reports null, bad keys and keys that flatten onto one another", () => {
    const parsed = parseJson('{\n"A": null,\n"my key": "x",\n"DB_HOST": "a",\n"db": {"host": "b"}\n}');
    expect(values(parsed)).toEqual({ DB_HOST: "b" });
    expect(parsed.invalid.map(({ line, reason, secretKey }) => [line, reason, secretKey])).toEqual([
      [2, "missing-value", "A"],
      [3, "bad-key", "my key"],
      [4, "duplicate", "DB_HOST"],
    ]);
  });

  it("reports invalid JSON with its line, and YAML that is not JSON", () => {
    expect(parseJson('{\n  "A": "1",\n  "B": "unclosed\n}').invalid).toEqual([
      { line: 3, reason: "syntax", message: expect.stringMatching(/^This is not valid JSON/) },
    ]);
    expect(parseJson('{\n  "A": "1",\n  "B": \n}').invalid).toEqual([
      { line: expect.any(Number), reason: "syntax", message: expect.stringMatching(/^This is not valid JSON/) },
    ]);
    expect(parseJson("A: 1").invalid[0]?.reason).toBe("syntax");
  });

  it("reports a file that is not one object", () => {
    expect(parseJson('["A"]').invalid).toEqual([
      { line: 1, reason: "syntax", message: "The file must hold one object of keys and values." },
    ]);
  });

  it("keeps the last of a key given twice and reports the first", () => {
    const parsed = parseJson('{"A": "1",\n"A": "2"}');
    expect(values(parsed)).toEqual({ A: "2" });
    expect(parsed.invalid.map(({ line, reason }) => [line, reason])).toEqual([[1, "duplicate"]]);
  });
});

describe("reading YAML", () => {
  it("reads strings, block scalars, nested maps and scalars as written", () => {
    const text = [
      "API_KEY: abc",
      "PORT: 05432",
      "DEBUG: yes",
      "QUOTED: 'true'",
      "CERT: |",
      "  line one",
      "  line two",
      "db:",
      "  host: db.internal",
      "LIST: [a, b]",
    ].join("\n");
    const parsed = parseYaml(text);
    expect(parsed.invalid).toEqual([]);
    expect(values(parsed)).toEqual({
      API_KEY: "abc",
      PORT: "05432",
      DEBUG: "yes",
      QUOTED: "true",
      CERT: "line one\nline two\n",
      DB_HOST: "db.internal",
      LIST: '["a","b"]',
    });
    expect(parsed.entries.find((entry) => entry.secretKey === "DB_HOST")?.line).toBe(9);
  });

  it("reports a key with no value, a bad key and a duplicate with their lines", () => {
    const parsed = parseYaml("A:\nB: 1\nbad key: 2\nB: 3\n");
    expect(parsed.invalid.map(({ line, reason, secretKey }) => [line, reason, secretKey])).toEqual([
      [1, "missing-value", "A"],
      [2, "duplicate", "B"],
      [3, "bad-key", "bad key"],
    ]);
    expect(values(parsed)).toEqual({ B: "3" });
  });

  it("reports a syntax error with its line", () => {
    const parsed = parseYaml('A: 1\nB: "unclosed\n');
    expect(parsed.entries).toEqual([]);
    expect(parsed.invalid[0]).toMatchObject({
      reason: "syntax",
      message: expect.stringMatching(/^This is not valid YAML/),
    });
  });

  it("reads an empty file as no keys", () => {
    expect(parseYaml("")).toEqual({ entries: [], invalid: [] });
  });
});

describe("writing JSON and YAML", () => {
  const secrets = [
    { secretKey: "PLAIN", secretValue: "x" },
    { secretKey: "BOOL_LIKE", secretValue: "true" },
    { secretKey: "NUMBER_LIKE", secretValue: "05432" },
    { secretKey: "NULL_LIKE", secretValue: "null" },
    { secretKey: "EMPTY", secretValue: "" },
    { secretKey: "MULTI", secretValue: "a\nb\n" },
    { secretKey: "MULTI_NO_END", secretValue: "a\n  b" },
    { secretKey: "QUOTES", secretValue: 'it\'s "q": #x' },
    { secretKey: "lower.case-key", secretValue: "v" },
  ];
  const expected = Object.fromEntries(secrets.map((s) => [s.secretKey, s.secretValue]));

  it("writes JSON that reads back to the same keys and values", () => {
    const parsed = parseJson(formatJson(secrets));
    expect(parsed.invalid).toEqual([]);
    expect(values(parsed)).toEqual(expected);
  });

  it("writes YAML that reads back to the same keys and values", () => {
    const text = formatYaml(secrets);
    expect(text).toContain('BOOL_LIKE: "true"');
    const parsed = parseYaml(text);
    expect(parsed.invalid).toEqual([]);
    expect(values(parsed)).toEqual(expected);
  });
});
