import { describe, expect, it } from "vitest";
import { previewImportChange } from "./change-preview";
import type { ImportedFolder, ImportRow } from "./provided-keys";

const row = (id: string, position: number, slug: string, path: string): ImportRow => ({
  id,
  position,
  importPath: path,
  importEnv: { slug, name: slug },
});
const folder = (environment: string, secretPath: string, ...keys: string[]): ImportedFolder => ({
  environment,
  secretPath,
  secrets: keys.map((secretKey) => ({ secretKey })),
});

// Last position wins among imports; the folder's own secret wins over every import.
const imports = [row("a", 1, "dev", "/shared"), row("b", 2, "dev", "/db"), row("c", 3, "prod", "/db")];
const folders = [
  folder("dev", "/shared", "LOG_LEVEL", "DB_URL", "REGION"),
  folder("dev", "/db", "DB_URL", "DB_POOL"),
  folder("prod", "/db", "DB_URL", "REGION", "OWN"),
];
const local = ["OWN"];
const dev = (id: string, path: string) => ({ kind: "import", id, label: `dev:${path}` });
const prod = { kind: "import", id: "c", label: "prod:/db" };

describe("previewImportChange", () => {
  it("lists the keys that a move hands to another import, and from where", () => {
    // prod:/db moved first: dev:/db now wins DB_URL, dev:/shared wins REGION.
    expect(previewImportChange(imports, folders, local, { kind: "move", id: "c", position: 1 })).toEqual([
      { key: "DB_URL", from: prod, to: dev("b", "/db") },
      { key: "REGION", from: prod, to: dev("a", "/shared") },
    ]);
  });

  it("lists nothing for a move that changes no supplier", () => {
    // dev:/shared and dev:/db swap; their only common key is DB_URL, which prod:/db supplies either way.
    expect(previewImportChange(imports, folders, local, { kind: "move", id: "a", position: 2 })).toEqual([]);
  });

  it("says which keys a removal leaves to another import, and which to nothing", () => {
    expect(previewImportChange(imports, folders, local, { kind: "remove", id: "c" })).toEqual([
      { key: "DB_URL", from: prod, to: dev("b", "/db") },
      { key: "REGION", from: prod, to: dev("a", "/shared") },
    ]);
    expect(previewImportChange(imports, folders, local, { kind: "remove", id: "b" })).toEqual([
      { key: "DB_POOL", from: dev("b", "/db"), to: { kind: "none" } },
    ]);
  });

  it("never lists a key the folder holds itself: its own secret wins before and after", () => {
    const changes = previewImportChange(imports, folders, local, { kind: "remove", id: "c" }) ?? [];
    expect(changes.map((c) => c.key)).not.toContain("OWN");
  });

  it("gives no preview while an import's keys are unknown", () => {
    expect(previewImportChange(imports, folders.slice(1), local, { kind: "remove", id: "c" })).toBeUndefined();
    expect(previewImportChange(imports, undefined, local, { kind: "remove", id: "c" })).toBeUndefined();
  });
});
