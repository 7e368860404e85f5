import { describe, expect, it } from "vitest";
import { applySuggestion, parseReferences, queryFolder, referenceQueryAt, suggest } from "./references";

describe("parseReferences", () => {
  it("reads local, environment-root and folder references, each once", () => {
    expect(parseReferences("postgres://${DB_USER}:${prod.DB_PASS}@${prod.db.eu.HOST}/${DB_USER}")).toEqual([
      { raw: "${DB_USER}", environment: undefined, secretPath: "", secretKey: "DB_USER" },
      { raw: "${prod.DB_PASS}", environment: "prod", secretPath: "/", secretKey: "DB_PASS" },
      { raw: "${prod.db.eu.HOST}", environment: "prod", secretPath: "/db/eu", secretKey: "HOST" },
    ]);
  });

  it("ignores text that only looks like the start of one", () => {
    expect(parseReferences("cost: $5, ${not closed, ${with space} and {PLAIN}")).toEqual([]);
  });
});

describe("referenceQueryAt", () => {
  it("finds the unclosed reference before the cursor", () => {
    expect(referenceQueryAt("a ${DB", 6)).toEqual({ start: 2, segments: [], partial: "DB" });
    expect(referenceQueryAt("${prod.db.HO", 12)).toEqual({ start: 0, segments: ["prod", "db"], partial: "HO" });
    expect(referenceQueryAt("${prod.", 7)).toEqual({ start: 0, segments: ["prod"], partial: "" });
  });

  it("finds none after a closed reference, a space, or no `${` at all", () => {
    expect(referenceQueryAt("${A} b", 6)).toBeUndefined();
    expect(referenceQueryAt("${A b", 5)).toBeUndefined();
    expect(referenceQueryAt("plain", 5)).toBeUndefined();
    // The cursor before the `${` sees nothing of it.
    expect(referenceQueryAt("x ${A", 1)).toBeUndefined();
  });
});

describe("suggest", () => {
  const names = { localKeys: ["DB_HOST", "API_KEY", "DB_PORT"], environments: ["dev", "prod"] };

  it("offers the folder's keys and the environments before a dot, prefix matches first", () => {
    const all = suggest({ start: 0, segments: [], partial: "" }, names).map((item) => item.label);
    expect(all).toEqual(["DB_HOST", "API_KEY", "DB_PORT", "dev.", "prod."]);
    const db = suggest({ start: 0, segments: [], partial: "d" }, names).map((item) => item.label);
    expect(db).toEqual(["DB_HOST", "DB_PORT", "dev.", "prod."]);
    const port = suggest({ start: 0, segments: [], partial: "port" }, names).map((item) => item.label);
    expect(port).toEqual(["DB_PORT"]);
  });

  it("offers a folder's subfolders and keys after `env.`", () => {
    const query = { start: 0, segments: ["prod"], partial: "" };
    expect(queryFolder(query)).toEqual({ environment: "prod", secretPath: "/" });
    const folder = { keys: ["SMTP_PASS"], folders: ["db"] };
    expect(suggest(query, { ...names, folder }).map((item) => [item.kind, item.label])).toEqual([
      ["folder", "db."],
      ["key", "SMTP_PASS"],
    ]);
    // Not read yet: nothing to offer.
    expect(suggest(query, names)).toEqual([]);
  });
});

describe("applySuggestion", () => {
  it("completes a key and closes the reference, keeping the text around it", () => {
    const value = "url=${DB_H and more";
    const query = referenceQueryAt(value, 10);
    expect(query).toBeDefined();
    const result = applySuggestion(value, 10, query!, { label: "DB_HOST", kind: "key", insert: "DB_HOST}" });
    expect(result).toEqual({ value: "url=${DB_HOST} and more", cursor: 14 });
  });

  it("goes into an environment and a folder, and does not double a brace already typed", () => {
    const env = applySuggestion("${pr", 4, referenceQueryAt("${pr", 4)!, {
      label: "prod.",
      kind: "environment",
      insert: "prod.",
    });
    expect(env).toEqual({ value: "${prod.", cursor: 7 });
    const key = applySuggestion("${prod.db.H}", 11, referenceQueryAt("${prod.db.H}", 11)!, {
      label: "HOST",
      kind: "key",
      insert: "HOST}",
    });
    expect(key).toEqual({ value: "${prod.db.HOST}", cursor: 15 });
  });
});
