import { type Kysely, sql, type Transaction, type Updateable } from "kysely";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import type { NewSecretImport, SecretImportRow, SecretImportTable } from "../db/schema-integrations.ts";
import type { SecretFolderRow } from "../db/schema-secrets.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** An import with the environment it reads from. */
export type SecretImportWithEnv = SecretImportRow & { env_name: string; env_slug: string };

function importsWithEnv(db: Db) {
  return db
    .selectFrom("secret_imports as i")
    .innerJoin("project_environments as e", "e.id", "i.import_env_id")
    .selectAll("i")
    .select(["e.name as env_name", "e.slug as env_slug"]);
}

/** A folder's imports in position order. */
export async function listFolderImports(db: Db, folderId: string): Promise<SecretImportWithEnv[]> {
  return importsWithEnv(db).where("i.folder_id", "=", folderId).orderBy("i.position").orderBy("i.created_at").execute();
}

export async function findFolderImport(
  db: Db,
  folderId: string,
  importId: string,
): Promise<SecretImportWithEnv | undefined> {
  return importsWithEnv(db).where("i.folder_id", "=", folderId).where("i.id", "=", importId).executeTakeFirst();
}

export async function insertSecretImport(db: Db, row: NewSecretImport): Promise<void> {
  await db.insertInto("secret_imports").values(row).execute();
}

export async function updateSecretImportRow(db: Db, id: string, patch: Updateable<SecretImportTable>): Promise<void> {
  await db.updateTable("secret_imports").set(patch).where("id", "=", id).execute();
}

export async function deleteSecretImportRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom("secret_imports").where("id", "=", id).execute();
}

export async function maxImportPosition(db: Db, folderId: string): Promise<number> {
  const row = await db
    .selectFrom("secret_imports")
    .select((eb) => eb.fn.max("position").as("max"))
    .where("folder_id", "=", folderId)
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

/** Moves the folder's imports with `from <= position <= upTo` by one place, up or down. */
export async function shiftImportPositions(
  db: Db,
  folderId: string,
  from: number,
  upTo: number,
  by: 1 | -1,
  now: string,
): Promise<void> {
  await db
    .updateTable("secret_imports")
    .set((eb) => ({ position: eb("position", "+", by), updated_at: now }))
    .where("folder_id", "=", folderId)
    .where("position", ">=", from)
    .where("position", "<=", upTo)
    .execute();
}

/**
 * Brings a folder's imports back to positions 1..n in their current order, where an import went
 * away without closing its gap (its source environment was deleted, and the row with it).
 */
export async function closePositionGaps(db: Db, folderId: string, now: string): Promise<boolean> {
  const rows = await db
    .selectFrom("secret_imports")
    .select(["id", "position"])
    .where("folder_id", "=", folderId)
    .orderBy("position")
    .orderBy("created_at")
    .execute();
  const moved = rows.flatMap((row, index) => (row.position === index + 1 ? [] : [{ id: row.id, position: index + 1 }]));
  for (const { id, position } of moved) {
    await db.updateTable("secret_imports").set({ position, updated_at: now }).where("id", "=", id).execute();
  }
  return moved.length > 0;
}

/**
 * Serialises changes to one folder's imports: on PostgreSQL the folder row is locked for the
 * transaction; SQLite runs one write transaction at a time anyway.
 */
export async function lockFolderImports(trx: Transaction<Database>, dialect: Dialect, folderId: string): Promise<void> {
  if (dialect !== "postgres") return;
  await sql`select id from secret_folders where id = ${folderId} for update`.execute(trx);
}

/** Every import of a project, with the environment its folder is in (for cycle checks). */
export async function listProjectImports(
  db: Db,
  projectId: string,
): Promise<{ folder_id: string; import_env_id: string; import_path: string }[]> {
  return db
    .selectFrom("secret_imports as i")
    .innerJoin("project_environments as e", "e.id", "i.import_env_id")
    .select(["i.folder_id", "i.import_env_id", "i.import_path"])
    .where("e.project_id", "=", projectId)
    .execute();
}

/** Every folder of a project's environments (trees are small; one query). */
export async function listProjectFolders(db: Db, projectId: string): Promise<SecretFolderRow[]> {
  return db
    .selectFrom("secret_folders as f")
    .innerJoin("project_environments as e", "e.id", "f.env_id")
    .selectAll("f")
    .where("e.project_id", "=", projectId)
    .execute();
}
