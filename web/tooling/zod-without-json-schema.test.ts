import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exportedNames, stubModule } from "./zod-without-json-schema.ts";

const coreDir = path.dirname(createRequire(import.meta.url).resolve("zod/v4/core"));
const read = (file: string) => readFileSync(path.join(coreDir, file), "utf8");
const classic = readFileSync(path.join(coreDir, "..", "classic", "schemas.js"), "utf8");

describe("the browser build's stand-ins for zod's JSON Schema modules", () => {
  it("export every name zod's classic schemas use from them", () => {
    const processors = new Set(exportedNames(read("json-schema-processors.js")));
    const used = new Set([...classic.matchAll(/\bprocessors\.([\w$]+)\(/g)].map((m) => m[1]));
    expect(used.size).toBeGreaterThan(20);
    for (const name of used) expect(processors).toContain(name);

    const toJsonSchema = exportedNames(read("to-json-schema.js"));
    expect(toJsonSchema).toEqual(
      expect.arrayContaining(["createToJSONSchemaMethod", "createStandardJSONSchemaMethod"]),
    );
  });

  it("throw a clear error when called", async () => {
    const source = stubModule(["createToJSONSchemaMethod"]);
    const module = await import(`data:text/javascript,${encodeURIComponent(source)}`);
    expect(() => module.createToJSONSchemaMethod()).toThrow(
      "zod's JSON Schema support (createToJSONSchemaMethod) is not built into the console",
    );
  });
});
