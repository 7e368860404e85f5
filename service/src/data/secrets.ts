import { type Insertable, type Kysely, sql, type Transaction, type Updateable } from "kysely";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import type {
  NewSecret,
  NewSecretVersion,
  SecretRow,
  SecretTable,
  SecretTagRow,
  SecretVersionRow,
} from "../db/schema-secrets.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** What a list shows of a secret: every column but the ones it never reads. */
export type ListedSecret = Pick<
  SecretRow,
  | "id"
  | "folder_id"
  | "type"
  | "key"
  | "version"
  | "value_ciphertext"
  | "comment_ciphertext"
  | "skip_multiline_encoding"
  | "reminder_note"
  | "reminder_repeat_days"
  | "metadata"
  | "created_at"
  | "updated_at"
>;

/**
 * The columns of a listed secret. PostgreSQL formats the timestamps as ISO 8601 text itself (to
 * the millisecond, as they are written), so a list of thousands parses no dates.
 */
function listedColumns(db: Db, dialect: Dialect) {
  const iso = (column: "created_at" | "updated_at") =>
    dialect === "postgres"
      ? sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(column)
      : sql<string>`${sql.ref(column)}`.as(column);
  return db
    .selectFrom("secrets")
    .select([
      "id",
      "folder_id",
      "type",
      "key",
      "version",
      "value_ciphertext",
      "comment_ciphertext",
      "skip_multiline_encoding",
      "reminder_note",
      "reminder_repeat_days",
      "metadata",
      iso("created_at"),
      iso("updated_at"),
    ]);
}

/** The shared secrets of one folder, by key. */
export async function listFolderSecrets(db: Db, dialect: Dialect, folderId: string): Promise<ListedSecret[]> {
  return listedColumns(db, dialect)
    .where("folder_id", "=", folderId)
    .where("type", "=", "shared")
    .orderBy("key")
    .execute();
}

/** The shared secrets of a whole environment (recursive lists keep the folders they want). */
export async function listEnvironmentSecrets(db: Db, dialect: Dialect, envId: string): Promise<ListedSecret[]> {
  return listedColumns(db, dialect).where("env_id", "=", envId).where("type", "=", "shared").orderBy("key").execute();
}

export interface TagLink {
  secret_id: string;
  id: string;
  slug: string;
  color: string | null;
}

/** The tags of the secrets of one folder, or of a whole environment: one query either way. */
export async function listTagLinks(db: Db, where: { folderId: string } | { envId: string }): Promise<TagLink[]> {
  let query = db
    .selectFrom("secret_tag_links as l")
    .innerJoin("secrets as s", "s.id", "l.secret_id")
    .innerJoin("secret_tags as t", "t.id", "l.tag_id")
    .select(["l.secret_id", "t.id", "t.slug", "t.color"]);
  query =
    "folderId" in where ? query.where("s.folder_id", "=", where.folderId) : query.where("s.env_id", "=", where.envId);
  return query.orderBy("t.slug").execute();
}

export async function listSecretTags(db: Db, secretId: string): Promise<TagLink[]> {
  return db
    .selectFrom("secret_tag_links as l")
    .innerJoin("secret_tags as t", "t.id", "l.tag_id")
    .select(["l.secret_id", "t.id", "t.slug", "t.color"])
    .where("l.secret_id", "=", secretId)
    .orderBy("t.slug")
    .execute();
}

export async function findSecretByKey(db: Db, folderId: string, key: string): Promise<SecretRow | undefined> {
  return db
    .selectFrom("secrets")
    .selectAll()
    .where("folder_id", "=", folderId)
    .where("key", "=", key)
    .where("type", "=", "shared")
    .executeTakeFirst();
}

/** Keys bound per statement: well under either database's limit on parameters. */
const KEYS_PER_QUERY = 500;

/**
 * The shared secrets of a folder with these keys, ordered by key. With `lock` (PostgreSQL), the
 * rows are locked for the transaction in key order, so two writes of overlapping keys queue
 * behind each other instead of deadlocking; SQLite runs one write transaction at a time.
 */
export async function findSecretsByKeys(
  db: Db,
  dialect: Dialect,
  folderId: string,
  keys: readonly string[],
  { lock = false }: { lock?: boolean } = {},
): Promise<SecretRow[]> {
  const sorted = [...new Set(keys)].sort();
  const found: SecretRow[] = [];
  for (let i = 0; i < sorted.length; i += KEYS_PER_QUERY) {
    let query = db
      .selectFrom("secrets")
      .selectAll()
      .where("folder_id", "=", folderId)
      .where("type", "=", "shared")
      .where("key", "in", sorted.slice(i, i + KEYS_PER_QUERY))
      .orderBy("key");
    if (lock && dialect === "postgres") query = query.forUpdate();
    found.push(...(await query.execute()));
  }
  return found;
}

export async function findSecretById(db: Db, secretId: string): Promise<SecretRow | undefined> {
  return db.selectFrom("secrets").selectAll().where("id", "=", secretId).executeTakeFirst();
}

export async function insertSecret(db: Db, row: NewSecret): Promise<void> {
  await db.insertInto("secrets").values(row).execute();
}

/**
 * Applies a change and takes the next version number in one statement. On PostgreSQL the
 * UPDATE locks the row until the transaction ends, so concurrent updates of one secret queue
 * behind each other and each reads the version the previous one wrote; SQLite runs one write
 * transaction at a time. Either way no two changes get the same number.
 */
export async function bumpSecret(
  trx: Transaction<Database>,
  secretId: string,
  patch: Updateable<SecretTable>,
): Promise<SecretRow | undefined> {
  return trx
    .updateTable("secrets")
    .set((eb) => ({ ...patch, version: eb("version", "+", 1) }))
    .where("id", "=", secretId)
    .returningAll()
    .executeTakeFirst();
}

/** The columns a change may set; `setSecrets` writes them all and takes the next version. */
const SETTABLE = [
  "key",
  "value_ciphertext",
  "comment_ciphertext",
  "skip_multiline_encoding",
  "reminder_note",
  "reminder_repeat_days",
  "reminder_recipients",
  "metadata",
  "updated_at",
] as const;
export type SecretState = Pick<SecretRow, "id" | (typeof SETTABLE)[number]>;

/** PostgreSQL reads the parameters of a VALUES list as text; each column is cast to its type. */
const postgresTypes: Record<"id" | (typeof SETTABLE)[number], string> = {
  id: "text",
  key: "text",
  value_ciphertext: "bytea",
  comment_ciphertext: "bytea",
  skip_multiline_encoding: "integer",
  reminder_note: "text",
  reminder_repeat_days: "integer",
  reminder_recipients: "text",
  metadata: "text",
  updated_at: "timestamptz",
};

/**
 * Writes the whole settable state of many secrets and takes each one's next version, a few
 * hundred rows per statement (UPDATE … FROM a VALUES list). Only for rows this transaction has
 * read and holds: locked (`findSecretsByKeys` with `lock`) on PostgreSQL, and on SQLite, where one
 * write transaction runs at a time, read inside it. Answers the rows written, in no set order.
 */
export async function setSecrets(
  trx: Transaction<Database>,
  dialect: Dialect,
  states: readonly SecretState[],
): Promise<SecretRow[]> {
  const names = ["id", ...SETTABLE] as const;
  const param = (state: SecretState, name: (typeof names)[number]) =>
    dialect === "postgres" ? sql`cast(${state[name]} as ${sql.raw(postgresTypes[name])})` : sql`${state[name]}`;
  const out: SecretRow[] = [];
  for (let i = 0; i < states.length; i += ROWS_PER_INSERT) {
    const rows = states
      .slice(i, i + ROWS_PER_INSERT)
      .map((state) => sql`(${sql.join(names.map((n) => param(state, n)))})`);
    // SQLite's RETURNING names only the updated table; PostgreSQL's would add the VALUES columns.
    const returning = dialect === "postgres" ? sql`secrets.*` : sql`*`;
    const result = await sql<SecretRow>`with v (${sql.join(names.map((n) => sql.ref(n)))}) as (values ${sql.join(rows)})
      update secrets set ${sql.join(SETTABLE.map((c) => sql`${sql.ref(c)} = ${sql.ref(`v.${c}`)}`))},
        version = secrets.version + 1
      from v where secrets.id = v.id
      returning ${returning}`.execute(trx);
    out.push(...result.rows);
  }
  return out;
}

export async function deleteSecretRow(db: Db, secretId: string): Promise<void> {
  await db.deleteFrom("secrets").where("id", "=", secretId).execute();
}

export async function insertSecretVersion(db: Db, row: NewSecretVersion): Promise<void> {
  await db.insertInto("secret_versions").values(row).execute();
}

/** Rows per multi-row INSERT: a few thousand parameters, well under either database's limit. */
const ROWS_PER_INSERT = 200;

async function insertChunked<T extends "secrets" | "secret_versions" | "secret_tag_links">(
  db: Db,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + ROWS_PER_INSERT) as Insertable<Database[T]>[])
      .execute();
  }
}

/** Inserts many secrets, a few hundred rows per statement. */
export async function insertSecrets(db: Db, rows: readonly NewSecret[]): Promise<void> {
  await insertChunked(db, "secrets", rows);
}

/** Inserts many version rows, a few hundred per statement. */
export async function insertSecretVersions(db: Db, rows: readonly NewSecretVersion[]): Promise<void> {
  await insertChunked(db, "secret_versions", rows);
}

/** Links new secrets to their tags (the secrets have none yet). */
export async function insertTagLinks(db: Db, links: readonly { secret_id: string; tag_id: string }[]): Promise<void> {
  await insertChunked(db, "secret_tag_links", links);
}

/** A secret's versions, newest first. */
export async function listSecretVersions(
  db: Db,
  secretId: string,
  page: { offset: number; limit: number },
): Promise<SecretVersionRow[]> {
  return db
    .selectFrom("secret_versions")
    .selectAll()
    .where("secret_id", "=", secretId)
    .orderBy("version", "desc")
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

export async function findSecretVersion(
  db: Db,
  secretId: string,
  version: number,
): Promise<SecretVersionRow | undefined> {
  return db
    .selectFrom("secret_versions")
    .selectAll()
    .where("secret_id", "=", secretId)
    .where("version", "=", version)
    .executeTakeFirst();
}

export async function replaceSecretTags(db: Db, secretId: string, tagIds: readonly string[]): Promise<void> {
  await db.deleteFrom("secret_tag_links").where("secret_id", "=", secretId).execute();
  if (tagIds.length > 0) {
    await db
      .insertInto("secret_tag_links")
      .values(tagIds.map((tagId) => ({ secret_id: secretId, tag_id: tagId })))
      .execute();
  }
}

/** The project's tags with these ids (fewer rows than ids: some are not the project's). */
export async function findProjectTags(db: Db, projectId: string, tagIds: readonly string[]): Promise<SecretTagRow[]> {
  if (tagIds.length === 0) return [];
  return db
    .selectFrom("secret_tags")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("id", "in", tagIds)
    .execute();
}

/** Deletes these secrets (their versions and tag links go with them). */
export async function deleteSecretRows(db: Db, secretIds: readonly string[]): Promise<void> {
  for (let i = 0; i < secretIds.length; i += KEYS_PER_QUERY) {
    await db
      .deleteFrom("secrets")
      .where("id", "in", secretIds.slice(i, i + KEYS_PER_QUERY))
      .execute();
  }
}

/** True when the error is a unique-constraint violation (either database). */
export function isUniqueViolation(error: unknown, dialect: Dialect): boolean {
  const e = error as { code?: unknown; message?: unknown };
  if (dialect === "postgres") return e.code === "23505";
  return typeof e.code === "string" && e.code.startsWith("SQLITE_CONSTRAINT");
}
