import { describe, expect, it } from "vitest";
import { importPrecedence } from "./import-precedence";

interface Source {
  name: string;
  keys: string[];
}
const source = (name: string, ...keys: string[]): Source => ({ name, keys });
const names = (sources: readonly Source[]) => sources.map((s) => s.name);

function resolve(imports: Source[], local: string[] = []) {
  const map = importPrecedence(imports, (s) => s.keys, local);
  return Object.fromEntries(
    [...map].map(([key, { supplier, overridden }]) => [
      key,
      { by: supplier?.name ?? "local", over: names(overridden) },
    ]),
  );
}

describe("importPrecedence", () => {
  it("gives a key the import placed last, overriding the earlier ones that have it", () => {
    const shared = source("shared", "API_KEY", "LOG_LEVEL");
    const database = source("database", "API_KEY", "DB_URL");
    expect(resolve([shared, database])).toEqual({
      API_KEY: { by: "database", over: ["shared"] },
      LOG_LEVEL: { by: "shared", over: [] },
      DB_URL: { by: "database", over: [] },
    });
    expect(resolve([database, shared]).API_KEY).toEqual({ by: "shared", over: ["database"] });
  });

  it("lets the folder's own secret win over every import that has the key", () => {
    const imports = [source("a", "API_KEY"), source("b", "API_KEY", "ONLY_B"), source("c", "OTHER")];
    expect(resolve(imports, ["API_KEY", "OWN_ONLY"])).toEqual({
      API_KEY: { by: "local", over: ["a", "b"] },
      ONLY_B: { by: "b", over: [] },
      OTHER: { by: "c", over: [] },
    });
  });

  it("lists overridden imports in position order, each once", () => {
    const imports = [source("a", "K", "K"), source("b", "K"), source("c", "K"), source("d", "K")];
    expect(resolve(imports).K).toEqual({ by: "d", over: ["a", "b", "c"] });
    expect(resolve(imports, ["K"]).K).toEqual({ by: "local", over: ["a", "b", "c", "d"] });
  });

  it("knows nothing of keys that only the folder holds, or of no imports", () => {
    expect(resolve([], ["A"])).toEqual({});
    expect(resolve([source("empty")], ["A"])).toEqual({});
  });
});
