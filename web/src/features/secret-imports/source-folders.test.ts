import { describe, expect, it } from "vitest";
import { childPath, folderChoices, folderExists, missingSources, splitFolderPath } from "./source-folders";

describe("splitFolderPath", () => {
  it("names a folder's parent and its own name; the root has neither", () => {
    expect(splitFolderPath("/db")).toEqual({ parent: "/", name: "db" });
    expect(splitFolderPath("/db/main")).toEqual({ parent: "/db", name: "main" });
    expect(splitFolderPath("/")).toBeUndefined();
    expect(childPath("/", "db")).toBe("/db");
    expect(childPath("/db", "main")).toBe("/db/main");
  });
});

describe("folderExists", () => {
  it("reads a folder's existence from its parent's sub-folders, unknown until they are listed", () => {
    expect(folderExists("/", undefined)).toBe(true);
    expect(folderExists("/db", ["app", "db"])).toBe(true);
    expect(folderExists("/nope", ["app", "db"])).toBe(false);
    expect(folderExists("/nope", [])).toBe(false);
    expect(folderExists("/db", undefined)).toBeUndefined();
  });
});

describe("folderChoices", () => {
  it("offers the root and its sub-folders", () => {
    expect(folderChoices("/", undefined, ["app", "db"])).toEqual(["/", "/app", "/db"]);
  });

  it("offers an existing folder, its sub-folders, then the folders beside it that contain its name", () => {
    expect(folderChoices("/app", ["app", "application", "db"], ["cache"])).toEqual([
      "/app",
      "/app/cache",
      "/application",
    ]);
  });

  it("for a partial name, offers the folders beside it whose name contains it, ignoring case", () => {
    expect(folderChoices("/ap", ["App", "db", "snapshots"], undefined)).toEqual(["/App", "/snapshots"]);
    expect(folderChoices("/db/rep", ["main", "replica"], undefined)).toEqual(["/db/replica"]);
  });

  it("offers nothing for a path no folder matches, or while the folders are unknown", () => {
    expect(folderChoices("/nope", ["app", "db"], undefined)).toEqual([]);
    expect(folderChoices("/db", undefined, undefined)).toEqual([]);
  });
});

describe("missingSources", () => {
  const row = (id: string, slug: string, importPath: string) => ({ id, importPath, importEnv: { slug } });
  const listings: Record<string, string[]> = { "prod:/": ["db"], "prod:/db": [] };

  it("marks an import whose folder is not among its parent's sub-folders, and only when they are known", () => {
    const imports = [
      row("root", "prod", "/"),
      row("db", "prod", "/db"),
      row("nope", "prod", "/nope"),
      row("deep", "prod", "/db/main"),
      row("unknown", "staging", "/db"),
    ];
    expect([...missingSources(imports, (env, parent) => listings[`${env}:${parent}`])]).toEqual(["nope", "deep"]);
  });
});
