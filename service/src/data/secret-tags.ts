import type { Insertable, Kysely, Transaction } from "kysely";
import type { Database } from "../db/schema.ts";
import type { SecretTagRow, SecretTagTable } from "../db/schema-secrets.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** A project's tags, oldest first. */
export async function listProjectTags(db: Db, projectId: string): Promise<SecretTagRow[]> {
  return db
    .selectFrom("secret_tags")
    .selectAll()
    .where("project_id", "=", projectId)
    .orderBy("created_at")
    .orderBy("slug")
    .execute();
}

export async function findTag(db: Db, projectId: string, tagId: string): Promise<SecretTagRow | undefined> {
  return db
    .selectFrom("secret_tags")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("id", "=", tagId)
    .executeTakeFirst();
}

export async function tagSlugTaken(db: Db, projectId: string, slug: string): Promise<boolean> {
  const row = await db
    .selectFrom("secret_tags")
    .select("id")
    .where("project_id", "=", projectId)
    .where("slug", "=", slug)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertTag(db: Db, tag: Insertable<SecretTagTable>): Promise<void> {
  await db.insertInto("secret_tags").values(tag).execute();
}

/** Deletes a tag; secrets simply lose it (the links cascade). */
export async function deleteTagRow(db: Db, tagId: string): Promise<void> {
  await db.deleteFrom("secret_tags").where("id", "=", tagId).execute();
}
