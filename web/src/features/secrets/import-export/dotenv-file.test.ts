import { parse as dotenvParse } from "dotenv";
import { describe, expect, it } from "vitest";
import { formatDotenv, parseDotenv, quoteDotenvValue } from "./dotenv-file";

const values = (text: string) =>
  Object.fromEntries(parseDotenv(text).entries.map((entry) => [entry.secretKey, entry.secretValue]));

describe("reading .env", () => {
  it("reads plain, quoted, exported and commented lines with their line numbers", () => {
    const text = [
      "# database",
      "export DB_HOST=db.internal",
      "DB_PORT = 5432   # the default",
      "",
      "EMPTY=",
      "SINGLE='it is $literal \\n'",
      'DOUBLE="tab\\there \\"quoted\\" back\\\\slash"',
      "BACKTICK=`say 'hi' \"there\"`",
      "PASS=a#1",
      "URL=https://x.test/#frag # trailing",
    ].join("\n");
    const parsed = parseDotenv(text);
    expect(parsed.invalid).toEqual([]);
    expect(parsed.entries.map(({ secretKey, line }) => [secretKey, line])).toEqual([
      ["DB_HOST", 2],
      ["DB_PORT", 3],
      ["EMPTY", 5],
      ["SINGLE", 6],
      ["DOUBLE", 7],
      ["BACKTICK", 8],
      ["PASS", 9],
      ["URL", 10],
    ]);
    expect(values(text)).toEqual({
      DB_HOST: "db.internal",
      DB_PORT: "5432",
      EMPTY: "",
      SINGLE: "it is $literal \\n",
      DOUBLE: 'tab\there "quoted" back\\slash',
      BACKTICK: "say 'hi' \"there\"",
      PASS: "a#1",
      URL: "https://x.test/#frag",
    });
  });

  it("reads multiline quoted values and goes on after them", () => {
    const text = 'KEY="-----BEGIN KEY-----\nabc\n-----END KEY-----"\nNEXT=1\nESCAPED="one\\ntwo"\nLIT=\'a\nb\'';
    const parsed = parseDotenv(text);
    expect(parsed.invalid).toEqual([]);
    expect(values(text)).toEqual({
      KEY: "-----BEGIN KEY-----\nabc\n-----END KEY-----",
      NEXT: "1",
      ESCAPED: "one\ntwo",
      LIT: "a\nb",
    });
    expect(parsed.entries.map((entry) => entry.line)).toEqual([1, 4, 5, 6]);
  });

  it("takes the comment lines right above a key as its comment, not those before a blank line", () => {
    const parsed = parseDotenv("# section\n\n# first line\n#  second\n#\nA=1\nB=2\n# dangling");
    expect(parsed.entries).toEqual([
      { secretKey: "A", secretValue: "1", secretComment: "first line\n second\n", line: 6 },
      { secretKey: "B", secretValue: "2", secretComment: undefined, line: 7 },
    ]);
  });

  it("accepts CRLF line ends and a byte-order mark", () => {
    expect(values('\uFEFFA=1\r\nB="x\r\ny"\r\n')).toEqual({ A: "1", B: "x\ny" });
  });

  it("reports a bad key with its line and the key, never the value", () => {
    const parsed = parseDotenv("GOOD=1\nMY KEY=secret-value\n=nokey\nKEY!=x\nÄRGER=1");
    expect(parsed.entries.map((entry) => entry.secretKey)).toEqual(["GOOD"]);
    expect(parsed.invalid).toEqual([
      { line: 2, reason: "bad-key", secretKey: "MY KEY", message: expect.stringMatching(/letters, digits/) },
      { line: 3, reason: "bad-key", secretKey: "", message: "The key is empty." },
      { line: 4, reason: "bad-key", secretKey: "KEY!", message: expect.any(String) },
      { line: 5, reason: "bad-key", secretKey: "ÄRGER", message: expect.any(String) },
    ]);
    expect(JSON.stringify(parsed.invalid)).not.toContain("secret-value");
  });

  it("reports a line that is not an assignment", () => {
    expect(parseDotenv("A=1\njust-a-value\n").invalid).toEqual([
      { line: 2, reason: "not-an-assignment", message: "The line is not of the form KEY=value." },
    ]);
  });

  it("reports an unterminated quote on its line and reads the lines after it", () => {
    const parsed = parseDotenv('A=1\nB="never closed\nC=3\nD=4');
    expect(parsed.invalid).toEqual([
      { line: 2, reason: "unterminated-quote", secretKey: "B", message: "The value's opening quote is never closed." },
    ]);
    expect(values('A=1\nB="never closed\nC=3\nD=4')).toEqual({ A: "1", C: "3", D: "4" });
  });

  it("takes a quote closed lines later with text after it for an unterminated one", () => {
    const text = "A='oops\nB=2\nC='x'\n";
    const parsed = parseDotenv(text);
    expect(parsed.invalid.map(({ line, reason }) => [line, reason])).toEqual([[1, "unterminated-quote"]]);
    expect(values(text)).toEqual({ B: "2", C: "x" });
  });

  it("reports text after a closing quote, and ignores a comment there", () => {
    const parsed = parseDotenv('A="x" junk\nB="y" # fine');
    expect(parsed.invalid).toEqual([
      {
        line: 1,
        reason: "text-after-quote",
        secretKey: "A",
        message: "There is text after the value's closing quote.",
      },
    ]);
    expect(parsed.entries.map((entry) => entry.secretValue)).toEqual(["y"]);
  });

  it("keeps the last of a key set twice, as dotenv does, and reports the earlier lines", () => {
    const text = "A=1\nB=2\nA=3\nA=4";
    const parsed = parseDotenv(text);
    expect(values(text)).toEqual({ A: "4", B: "2" });
    expect(dotenvParse(text)).toEqual({ A: "4", B: "2" });
    expect(parsed.invalid).toEqual([
      { line: 1, reason: "duplicate", secretKey: "A", message: "A is set again on line 4, which is the one imported." },
      { line: 3, reason: "duplicate", secretKey: "A", message: "A is set again on line 4, which is the one imported." },
    ]);
  });

  it("reads what the dotenv package reads, where the two agree by design", () => {
    const text = [
      "A=plain",
      "export B=exported",
      "C = spaced ",
      "D='single $x \"q\"'",
      'E="double\\nnewline"',
      'F="multi',
      'line"',
      "G=`back 'tick'`",
      "H=",
      "I=value # comment",
      "J.K-L_0=dotted",
    ].join("\n");
    expect(values(text)).toEqual(dotenvParse(text));
  });
});

describe("writing .env", () => {
  const samples = [
    "",
    "plain-value_1.2:3/4@host%2B",
    "with space",
    "  padded  ",
    "a#b",
    "#start",
    "multi\nline\nvalue",
    "it's",
    'say "hi"\nand it\'s',
    "back\\slash and it's",
    "all ' \" ` \\ \n of them",
    "${REF} and $HOME",
    "trailing newline\n",
    "\ttab",
  ];

  it.each(samples)("quotes %j so that it reads back exactly", (value) => {
    const text = `KEY=${quoteDotenvValue(value)}`;
    const parsed = parseDotenv(text);
    expect(parsed.invalid).toEqual([]);
    expect(parsed.entries[0]?.secretValue).toBe(value);
  });

  it("writes values dotenv reads back the same, except for backslash escapes in double quotes", () => {
    const secrets = samples
      .filter((value) => !/["'`]/.test(value) || !value.includes("\\"))
      .map((secretValue, index) => ({ secretKey: `K${index}`, secretValue }));
    const dotenvRead = dotenvParse(formatDotenv(secrets));
    expect(dotenvRead).toEqual(Object.fromEntries(secrets.map((s) => [s.secretKey, s.secretValue])));
  });

  it("round-trips keys, values and comments", () => {
    const secrets = [
      { secretKey: "A", secretValue: "1", secretComment: "" },
      { secretKey: "B", secretValue: "two\nlines", secretComment: "first\n\n  indented" },
      { secretKey: "C", secretValue: 'it\'s "quoted"', secretComment: "why C" },
    ];
    const text = formatDotenv(secrets);
    expect(text).toBe("A=1\n\n# first\n#\n#   indented\nB='two\nlines'\n\n# why C\nC=`it's \"quoted\"`\n");
    expect(parseDotenv(text)).toEqual({
      entries: [
        { secretKey: "A", secretValue: "1", secretComment: undefined, line: 1 },
        { secretKey: "B", secretValue: "two\nlines", secretComment: "first\n\n  indented", line: 6 },
        { secretKey: "C", secretValue: 'it\'s "quoted"', secretComment: "why C", line: 10 },
      ],
      invalid: [],
    });
  });
});
