import { describe, expect, it } from "vitest";
import { type ContentReader, countFolderContents, type FolderRef } from "./folder-contents";

/** An environment's tree: path → its secrets and imports; folders are the keys other than "/". */
const tree: Record<string, { secrets: number; imports: number }> = {
  "/": { secrets: 2, imports: 1 },
  "/app": { secrets: 3, imports: 0 },
  "/app/api": { secrets: 1, imports: 2 },
  "/app/api/v1": { secrets: 0, imports: 0 },
  "/jobs": { secrets: 0, imports: 1 },
};

const idOf = (path: string) => `id:${path}`;
const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/")) || "/";
const below = (path: string) =>
  Object.keys(tree).filter((p) => p !== path && p.startsWith(path === "/" ? "/" : `${path}/`));

/** A server as the tree above; `recursive` says whether it lists folders recursively. */
function reader(recursive: boolean): ContentReader & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    secrets: async ({ secretPath }) =>
      [secretPath, ...below(secretPath)].reduce((n, p) => n + (tree[p]?.secrets ?? 0), 0),
    folders: async ({ secretPath }, asked) => {
      calls.push(`folders ${secretPath}${asked ? " recursive" : ""}`);
      const all = below(secretPath);
      const listed = recursive && asked ? all : all.filter((p) => parentOf(p) === secretPath);
      return listed.map((p) => ({
        id: idOf(p),
        name: p.slice(p.lastIndexOf("/") + 1),
        parentId: idOf(parentOf(p)),
        ...(recursive && asked ? { relativePath: p.slice(secretPath === "/" ? 0 : secretPath.length) } : {}),
      }));
    },
    imports: async ({ secretPath }) => {
      calls.push(`imports ${secretPath}`);
      return tree[secretPath]?.imports ?? 0;
    },
  };
}

const at = (secretPath: string): FolderRef => ({ projectId: "p", environment: "prod", secretPath });

describe("countFolderContents", () => {
  it("counts secrets, folders and imports at every depth below a folder", async () => {
    expect(await countFolderContents(reader(true), at("/"))).toEqual({ secrets: 6, folders: 4, imports: 4 });
    expect(await countFolderContents(reader(true), at("/app"))).toEqual({ secrets: 4, folders: 2, imports: 2 });
  });

  it("reads each folder's imports by its path, built from the recursive list", async () => {
    const read = reader(true);
    await countFolderContents(read, at("/app"));
    expect(read.calls.filter((call) => call.startsWith("imports")).sort()).toEqual([
      "imports /app",
      "imports /app/api",
      "imports /app/api/v1",
    ]);
    expect(read.calls.filter((call) => call.startsWith("folders"))).toEqual(["folders /app recursive"]);
  });

  it("walks the tree a level at a time on a server that does not list recursively", async () => {
    const read = reader(false);
    expect(await countFolderContents(read, at("/"))).toEqual({ secrets: 6, folders: 4, imports: 4 });
    expect(read.calls.filter((call) => call.startsWith("folders")).sort()).toEqual([
      "folders / recursive",
      "folders /app",
      "folders /app/api",
      "folders /app/api/v1",
      "folders /jobs",
    ]);
  });

  it("counts an empty folder as empty", async () => {
    expect(await countFolderContents(reader(false), at("/app/api/v1"))).toEqual({
      secrets: 0,
      folders: 0,
      imports: 0,
    });
  });
});
