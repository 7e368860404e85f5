import { describe, expect, it } from "vitest";
import {
  createReferenceExpander,
  type FolderSecret,
  MAX_REFERENCE_DEPTH,
  ReferencePermissionError,
  type SecretAddress,
  referencesIn,
  resolveReference,
} from "./secret-references.ts";

type Tree = Record<string, Record<string, Record<string, string | { value: string; tags: string[] }>>>;

/** An expander over an in-memory tree: environment → folder path → key → value. */
function expanderOver(tree: Tree, canRead: (s: SecretAddress & { secretTags: string[] }) => boolean = () => true) {
  const loads: string[] = [];
  const expander = createReferenceExpander({
    async loadFolder(environment, secretPath) {
      loads.push(`${environment}:${secretPath}`);
      const folder = tree[environment]?.[secretPath];
      if (!folder) return undefined;
      return new Map<string, FolderSecret>(
        Object.entries(folder).map(([key, v]) => [key, typeof v === "string" ? { value: v, tags: [] } : v]),
      );
    },
    canRead,
  });
  return { expander, loads };
}

const at = (environment: string, secretPath: string, secretKey: string, value: string) => ({
  environment,
  secretPath,
  secretKey,
  value,
});

describe("reference syntax", () => {
  it("reads local, root and nested references", () => {
    const from = { environment: "dev", secretPath: "/app" };
    expect(resolveReference("KEY", from)).toEqual({ environment: "dev", secretPath: "/app", secretKey: "KEY" });
    expect(resolveReference("prod.KEY", from)).toEqual({ environment: "prod", secretPath: "/", secretKey: "KEY" });
    expect(resolveReference("prod.a.b.KEY", from)).toEqual({
      environment: "prod",
      secretPath: "/a/b",
      secretKey: "KEY",
    });
    expect(resolveReference("prod..KEY", from)).toBeUndefined();
  });

  it("takes only letters, digits, _, . and - between the braces", () => {
    expect(referencesIn("${A} ${b-c.d_e} ${A} ${with space} ${a/b} ${} $A {B}")).toEqual(["A", "b-c.d_e"]);
  });
});

describe("expansion", () => {
  it("expands a local reference, a cross-environment one and a nested chain", async () => {
    const { expander } = expanderOver({
      dev: { "/": { HOST: "db.internal", URL: "postgres://${HOST}:${prod.PORT}/${prod.app.NAME}" } },
      prod: { "/": { PORT: "5432" }, "/app": { NAME: "${SUFFIX}-db", SUFFIX: "main" } },
    });
    const result = await expander.expand(at("dev", "/", "URL", "postgres://${HOST}:${prod.PORT}/${prod.app.NAME}"));
    // ${SUFFIX} inside prod/app/NAME resolves against prod /app, not against dev /.
    expect(result).toEqual({ value: "postgres://db.internal:5432/main-db", issues: [] });
  });

  it("replaces every occurrence, and inserts replacement text literally ($ patterns included)", async () => {
    const { expander } = expanderOver({ dev: { "/": { A: "$&-$1" } } });
    expect((await expander.expand(at("dev", "/", "X", "${A}/${A}"))).value).toBe("$&-$1/$&-$1");
  });

  it("leaves a missing environment, folder or key as written, and reports each", async () => {
    const { expander } = expanderOver({ dev: { "/": {} } });
    const result = await expander.expand(at("dev", "/", "X", "${NOPE} ${qa.K} ${dev.missing.K}"));
    expect(result.value).toBe("${NOPE} ${qa.K} ${dev.missing.K}");
    expect(result.issues.map((i) => [i.kind, i.reference])).toEqual([
      ["missing", "${NOPE}"],
      ["missing", "${qa.K}"],
      ["missing", "${dev.missing.K}"],
    ]);
    expect(result.issues[2]?.target).toEqual({ environment: "dev", secretPath: "/missing", secretKey: "K" });
  });

  it("leaves a reference to an empty value as written", async () => {
    const { expander } = expanderOver({ dev: { "/": { EMPTY: "" } } });
    const result = await expander.expand(at("dev", "/", "X", "a${EMPTY}b"));
    expect(result.value).toBe("a${EMPTY}b");
    expect(result.issues.map((i) => i.kind)).toEqual(["empty"]);
  });

  it("stops at a direct cycle, keeping the reference that closes it, and reports it", async () => {
    const { expander } = expanderOver({ dev: { "/": { A: "${B}", B: "${A}" } } });
    const result = await expander.expand(at("dev", "/", "A", "${B}"));
    expect(result.value).toBe("${A}");
    expect(result.issues).toEqual([
      {
        kind: "cycle",
        reference: "${A}",
        in: { environment: "dev", secretPath: "/", secretKey: "B" },
        target: { environment: "dev", secretPath: "/", secretKey: "A" },
      },
    ]);
  });

  it("stops at an indirect cycle across environments and a self-reference", async () => {
    const { expander } = expanderOver({
      dev: { "/": { A: "a(${prod.B})" } },
      prod: { "/": { B: "b(${staging.x.C})" } },
      staging: { "/x": { C: "c(${dev.A})" } },
    });
    const result = await expander.expand(at("dev", "/", "A", "a(${prod.B})"));
    expect(result.value).toBe("a(b(c(${dev.A})))");
    expect(result.issues.map((i) => i.kind)).toEqual(["cycle"]);

    const self = await expanderOver({ dev: { "/": { S: "x${S}" } } }).expander.expand(at("dev", "/", "S", "x${S}"));
    expect(self).toMatchObject({ value: "x${S}", issues: [{ kind: "cycle", reference: "${S}" }] });
  });

  it("expands a diamond (the same secret on two branches) without calling it a cycle", async () => {
    const { expander, loads } = expanderOver({ dev: { "/": { L: "${C}", R: "${C}", C: "c" } } });
    const result = await expander.expand(at("dev", "/", "X", "${L}+${R}"));
    expect(result).toEqual({ value: "c+c", issues: [] });
    // The folder is loaded once for the whole expansion.
    expect(loads).toEqual(["dev:/"]);
  });

  it(`follows ${MAX_REFERENCE_DEPTH} levels and leaves deeper references as written`, async () => {
    // K0 → K1 → … → K12 = "end"
    const folder: Record<string, string> = { K12: "end" };
    for (let i = 0; i < 12; i += 1) folder[`K${i}`] = `\${K${i + 1}}`;
    const { expander } = expanderOver({ dev: { "/": folder } });
    const result = await expander.expand(at("dev", "/", "K0", "${K1}"));
    expect(result.value).toBe(`\${K${MAX_REFERENCE_DEPTH + 1}}`);
    expect(result.issues).toMatchObject([{ kind: "depth", reference: `\${K${MAX_REFERENCE_DEPTH}}` }]);

    const shallow = await expander.expand(at("dev", "/", "K3", "${K4}"));
    expect(shallow).toEqual({ value: "end", issues: [] });
  });

  it("quotes a multi-line expansion on one line when the secret skips multi-line encoding", async () => {
    const { expander } = expanderOver({ dev: { "/": { CERT: "line1\nline2" } } });
    const kept = await expander.expand({ ...at("dev", "/", "X", "${CERT}"), skipMultilineEncoding: true });
    expect(kept.value).toBe('"line1\\nline2"');
    const plain = await expander.expand(at("dev", "/", "X", "${CERT}"));
    expect(plain.value).toBe("line1\nline2");
  });
});

describe("permission to read references", () => {
  const tree: Tree = {
    dev: { "/": { OPEN: "open", LOCAL: "${prod.secret.HIDDEN}" } },
    prod: { "/secret": { HIDDEN: { value: "h", tags: ["pci"] } } },
  };
  const deniesProdSecret = (s: SecretAddress & { secretTags: string[] }) =>
    !(s.environment === "prod" && s.secretPath === "/secret");

  it("refuses a reference the caller may not read, naming both secrets", async () => {
    const { expander } = expanderOver(tree, deniesProdSecret);
    const failure = expander.expand(at("dev", "/", "X", "${OPEN} ${prod.secret.HIDDEN}"));
    await expect(failure).rejects.toBeInstanceOf(ReferencePermissionError);
    await expect(failure).rejects.toThrow(
      "You do not have permission to read secret 'HIDDEN' in environment 'prod' at path '/secret', which is referenced by secret 'X' in environment 'dev' at path '/'",
    );
  });

  it("refuses a nested reference the caller may not read, and one to a missing secret there", async () => {
    const { expander } = expanderOver(tree, deniesProdSecret);
    await expect(expander.expand(at("dev", "/", "X", "${LOCAL}"))).rejects.toThrow(
      "which is referenced by secret 'LOCAL'",
    );
    await expect(expander.expand(at("dev", "/", "X", "${prod.secret.NONE}"))).rejects.toThrow("secret 'NONE'");
  });

  it("checks each referenced secret with its own tags", async () => {
    const seen: string[][] = [];
    const { expander } = expanderOver(tree, (s) => {
      seen.push(s.secretTags);
      return true;
    });
    expect((await expander.expand(at("dev", "/", "X", "${prod.secret.HIDDEN}"))).value).toBe("h");
    expect(seen).toEqual([["pci"]]);
  });

  it("fails a whole list with one 403 listing every refusal", async () => {
    const { expander } = expanderOver(tree, deniesProdSecret);
    const failure = expander.expandAll([
      at("dev", "/", "A", "${OPEN}"),
      at("dev", "/", "B", "${prod.secret.HIDDEN}"),
      at("dev", "/", "C", "${LOCAL}"),
    ]);
    await expect(failure).rejects.toMatchObject({
      message: "Failed to expand one or more secret references",
      statusCode: 403,
      details: [
        expect.stringContaining("referenced by secret 'B'"),
        expect.stringContaining("referenced by secret 'LOCAL'"),
      ],
    });
  });

  it("keeps a single secret's own refusal", async () => {
    const { expander } = expanderOver(tree, deniesProdSecret);
    await expect(expander.expandAll([at("dev", "/", "B", "${prod.secret.HIDDEN}")])).rejects.toThrow(
      "which is referenced by secret 'B'",
    );
  });

  it("expands a permitted list in order, with the issues of every secret", async () => {
    const { expander } = expanderOver(tree);
    const result = await expander.expandAll([at("dev", "/", "A", "${OPEN}"), at("dev", "/", "B", "${GONE}")]);
    expect(result.values).toEqual(["open", "${GONE}"]);
    expect(result.issues.map((i) => [i.in.secretKey, i.kind])).toEqual([["B", "missing"]]);
  });
});
