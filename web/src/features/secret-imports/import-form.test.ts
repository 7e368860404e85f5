import { describe, expect, it } from "vitest";
import { importFormSchema, normalisePath } from "./import-form";
import type { ImportRow } from "./provided-keys";

const folder = { projectId: "p", environment: "dev", path: "/app" };
const existing: ImportRow[] = [
  { id: "1", position: 1, importPath: "/", importEnv: { slug: "staging", name: "Staging" } },
];
const messages = (input: unknown) => {
  const result = importFormSchema(folder, existing).safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("importFormSchema", () => {
  it("accepts an environment and a folder path, normalised as the server will read it", () => {
    expect(importFormSchema(folder, existing).parse({ environment: "prod", path: " db/main/ " })).toEqual({
      environment: "prod",
      path: "/db/main",
    });
  });

  it("asks for an environment", () => {
    expect(messages({ environment: "", path: "/" })).toEqual(["environment: Choose the environment to import from"]);
  });

  it("refuses a path with characters no folder name may hold", () => {
    expect(messages({ environment: "prod", path: "/db main" })).toEqual([
      "path: A path is / or /folder/sub-folder, with letters, digits, dashes and underscores",
    ]);
    expect(messages({ environment: "prod", path: "/a//b" })).toHaveLength(1);
  });

  it("refuses the folder itself and a source it already imports", () => {
    expect(messages({ environment: "dev", path: "/app/" })).toEqual(["path: A folder cannot import itself"]);
    expect(messages({ environment: "staging", path: "/" })).toEqual(["path: This folder already imports that one"]);
  });
});

describe("importFormSchema with a folder lookup", () => {
  const folders: Record<string, string[]> = { prod: ["/", "/db"] };
  const exists = async (environment: string, path: string) => folders[environment]?.includes(path);
  const schema = importFormSchema(folder, existing, exists);

  it("refuses a folder that does not exist in the source environment, naming both", async () => {
    const result = await schema.safeParseAsync({ environment: "prod", path: "/nope" });
    expect(
      result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    ).toEqual(["path: Folder /nope does not exist in prod"]);
  });

  it("accepts an existing folder, and one whose existence cannot be told", async () => {
    expect(await schema.parseAsync({ environment: "prod", path: "db" })).toEqual({ environment: "prod", path: "/db" });
    expect(await schema.parseAsync({ environment: "qa", path: "/db" })).toEqual({ environment: "qa", path: "/db" });
  });
});

describe("normalisePath", () => {
  it("reads a typed path the way the server does, or refuses it", () => {
    expect(normalisePath("")).toBe("/");
    expect(normalisePath("db/")).toBe("/db");
    expect(normalisePath("/db/replica_1")).toBe("/db/replica_1");
    expect(normalisePath("/db/../etc")).toBeUndefined();
  });
});
