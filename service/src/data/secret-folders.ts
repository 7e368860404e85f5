import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database, ProjectEnvironmentRow } from "../db/schema.ts";
import type { SecretFolderRow } from "../db/schema-secrets.ts";

type Db = Kysely<Database> | Transaction<Database>;

export const ROOT_FOLDER_NAME = "root";

export async function findEnvironmentBySlug(
  db: Db,
  projectId: string,
  slug: string,
): Promise<ProjectEnvironmentRow | undefined> {
  return db
    .selectFrom("project_environments")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("slug", "=", slug)
    .executeTakeFirst();
}

/**
 * An environment's root folder ("/"), made the first time it is asked for: environments created
 * before folders existed, and every one created since, get theirs the same way. Two requests
 * racing here both end with the one row the partial unique index allows.
 */
export async function rootFolder(db: Db, envId: string, now: string): Promise<SecretFolderRow> {
  const find = () =>
    db
      .selectFrom("secret_folders")
      .selectAll()
      .where("env_id", "=", envId)
      .where("parent_id", "is", null)
      .executeTakeFirst();
  const existing = await find();
  if (existing) return existing;
  await db
    .insertInto("secret_folders")
    .values({
      id: randomUUID(),
      env_id: envId,
      parent_id: null,
      name: ROOT_FOLDER_NAME,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column("env_id").where("parent_id", "is", null).doNothing())
    .execute();
  const made = await find();
  if (!made) throw new Error(`The root folder of environment ${envId} could not be made`);
  return made;
}

/** Every folder of an environment, root included (one query; trees are small). */
export async function listEnvironmentFolders(db: Db, envId: string): Promise<SecretFolderRow[]> {
  return db.selectFrom("secret_folders").selectAll().where("env_id", "=", envId).execute();
}

export async function findFolderById(db: Db, folderId: string): Promise<SecretFolderRow | undefined> {
  return db.selectFrom("secret_folders").selectAll().where("id", "=", folderId).executeTakeFirst();
}

/** A folder with the environment and project it belongs to. */
export async function findFolderWithEnvironment(db: Db, folderId: string) {
  return db
    .selectFrom("secret_folders as f")
    .innerJoin("project_environments as e", "e.id", "f.env_id")
    .selectAll("f")
    .select(["e.project_id", "e.slug as env_slug", "e.name as env_name"])
    .where("f.id", "=", folderId)
    .executeTakeFirst();
}

export async function insertFolder(
  db: Db,
  folder: { id: string; envId: string; parentId: string; name: string; description: string | null; now: string },
): Promise<void> {
  await db
    .insertInto("secret_folders")
    .values({
      id: folder.id,
      env_id: folder.envId,
      parent_id: folder.parentId,
      name: folder.name,
      description: folder.description,
      created_at: folder.now,
      updated_at: folder.now,
    })
    .execute();
}

export async function renameFolder(
  db: Db,
  folderId: string,
  change: { name: string; description?: string | null; now: string },
): Promise<void> {
  await db
    .updateTable("secret_folders")
    .set((eb) => ({
      name: change.name,
      ...(change.description !== undefined && { description: change.description }),
      version: eb("version", "+", 1),
      updated_at: change.now,
    }))
    .where("id", "=", folderId)
    .execute();
}

/** Deletes a folder; its subfolders and their secrets go with it (foreign keys cascade). */
export async function deleteFolderRow(db: Db, folderId: string): Promise<void> {
  await db.deleteFrom("secret_folders").where("id", "=", folderId).execute();
}

/**
 * An environment's folders as a tree: each folder's full path, the folder at a path, and a
 * folder's descendants. Built from one list, so resolving many paths costs no more queries.
 */
export class FolderTree {
  readonly byId = new Map<string, SecretFolderRow>();
  private readonly paths = new Map<string, string>();
  private readonly byPath = new Map<string, SecretFolderRow>();
  private readonly children = new Map<string, SecretFolderRow[]>();

  constructor(folders: readonly SecretFolderRow[]) {
    for (const folder of folders) {
      this.byId.set(folder.id, folder);
      if (folder.parent_id !== null) {
        const siblings = this.children.get(folder.parent_id);
        if (siblings) siblings.push(folder);
        else this.children.set(folder.parent_id, [folder]);
      }
    }
    for (const folder of folders) this.byPath.set(this.pathOf(folder.id), folder);
  }

  /** The folder's full path ("/" for the root, "/a/b" below it). */
  pathOf(folderId: string): string {
    const known = this.paths.get(folderId);
    if (known !== undefined) return known;
    const folder = this.byId.get(folderId);
    let path = "/";
    if (folder && folder.parent_id !== null) {
      const parent = this.pathOf(folder.parent_id);
      path = parent === "/" ? `/${folder.name}` : `${parent}/${folder.name}`;
    }
    this.paths.set(folderId, path);
    return path;
  }

  at(path: string): SecretFolderRow | undefined {
    return this.byPath.get(path);
  }

  childrenOf(folderId: string): SecretFolderRow[] {
    return this.children.get(folderId) ?? [];
  }

  /** Every folder below `folderId` (itself excluded), parents before children. */
  descendantsOf(folderId: string): SecretFolderRow[] {
    const out: SecretFolderRow[] = [];
    const queue = [...this.childrenOf(folderId)];
    for (let i = 0; i < queue.length; i++) {
      const folder = queue[i] as SecretFolderRow;
      out.push(folder);
      queue.push(...this.childrenOf(folder.id));
    }
    return out;
  }
}

/** "/a/b" as its names; "/" as none. */
export function pathSegments(path: string): string[] {
  return path.split("/").filter(Boolean);
}

/** Joins a parent path and a child name. */
export function childPath(parent: string, name: string): string {
  return parent === "/" ? `/${name}` : `${parent}/${name}`;
}
