import { describe, expect, it } from "vitest";
import { type ImportedFolder, type ImportRow, providedKeys, sourceLabel } from "./provided-keys";

const row = (id: string, position: number, slug: string, importPath = "/"): ImportRow => ({
  id,
  position,
  importPath,
  importEnv: { slug, name: slug },
});
const folder = (environment: string, keys: string[], secretPath = "/"): ImportedFolder => ({
  environment,
  secretPath,
  secrets: keys.map((secretKey) => ({ secretKey })),
});

describe("providedKeys", () => {
  const imports = [row("stg", 1, "staging"), row("prd", 2, "prod")];
  const folders = [folder("staging", ["API_KEY", "STAGING_ONLY"]), folder("prod", ["API_KEY", "DB_URL"])];

  it("lists each import's keys, the last import winning a key they share", () => {
    const keys = providedKeys(imports, folders, []);
    expect(keys.get("stg")).toEqual([
      { key: "API_KEY", winner: { kind: "import", importId: "prd" } },
      { key: "STAGING_ONLY", winner: { kind: "used" } },
    ]);
    expect(keys.get("prd")).toEqual([
      { key: "API_KEY", winner: { kind: "used" } },
      { key: "DB_URL", winner: { kind: "used" } },
    ]);
  });

  it("follows the positions, not the order of the list", () => {
    const swapped = [row("stg", 2, "staging"), row("prd", 1, "prod")];
    const keys = providedKeys(swapped, folders, []);
    expect(keys.get("stg")?.[0]).toEqual({ key: "API_KEY", winner: { kind: "used" } });
    expect(keys.get("prd")?.[0]).toEqual({ key: "API_KEY", winner: { kind: "import", importId: "stg" } });
  });

  it("gives the folder's own secret precedence over every import", () => {
    const keys = providedKeys(imports, folders, ["API_KEY"]);
    expect(keys.get("prd")?.[0]).toEqual({ key: "API_KEY", winner: { kind: "local" } });
    expect(keys.get("stg")?.[0]).toEqual({ key: "API_KEY", winner: { kind: "local" } });
  });

  it("matches imports by environment and path, and says nothing of an import the server did not report", () => {
    const nested = [row("db", 1, "prod", "/db"), row("root", 2, "prod", "/")];
    const keys = providedKeys(nested, [folder("prod", ["PASSWORD"], "/db")], []);
    expect(keys.get("db")).toEqual([{ key: "PASSWORD", winner: { kind: "used" } }]);
    expect(keys.get("root")).toBeUndefined();
    expect(providedKeys(nested, undefined, []).get("db")).toBeUndefined();
  });

  it("reports an empty source folder as providing no keys", () => {
    expect(providedKeys([row("e", 1, "dev")], [folder("dev", [])], []).get("e")).toEqual([]);
  });
});

describe("sourceLabel", () => {
  it("names an import by environment slug and path", () => {
    expect(sourceLabel(row("x", 1, "staging", "/db/main"))).toBe("staging:/db/main");
  });
});
