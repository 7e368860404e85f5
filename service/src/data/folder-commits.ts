import type { Insertable, Kysely, Transaction } from "kysely";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import type { FolderCommitRow, FolderCommitTable, SecretVersionRow } from "../db/schema-secrets.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** A folder's contents at one point: what a commit holds (no values: those stay in secret_versions). */
export interface FolderState {
  /** Shared secrets by key: which version each was at, and its tag ids. */
  secrets: { id: string; key: string; version: number; tags: string[] }[];
  /** Direct sub-folders (their contents are in their own commits). */
  folders: { id: string; name: string; description: string | null }[];
  /** Imports in position order. */
  imports: { id: string; envId: string; path: string; position: number; isReplication: boolean }[];
}

export const EMPTY_STATE: FolderState = { secrets: [], folders: [], imports: [] };

/** The live state of a folder, read in the caller's transaction. */
export async function readFolderState(db: Db, folderId: string): Promise<FolderState> {
  const [secrets, links, folders, imports] = await Promise.all([
    db
      .selectFrom("secrets")
      .select(["id", "key", "version"])
      .where("folder_id", "=", folderId)
      .where("type", "=", "shared")
      .orderBy("key")
      .execute(),
    db
      .selectFrom("secret_tag_links as l")
      .innerJoin("secrets as s", "s.id", "l.secret_id")
      .select(["l.secret_id", "l.tag_id"])
      .where("s.folder_id", "=", folderId)
      .execute(),
    db
      .selectFrom("secret_folders")
      .select(["id", "name", "description"])
      .where("parent_id", "=", folderId)
      .orderBy("name")
      .execute(),
    db
      .selectFrom("secret_imports")
      .select(["id", "import_env_id", "import_path", "position", "is_replication"])
      .where("folder_id", "=", folderId)
      .orderBy("position")
      .execute(),
  ]);
  const tags = new Map<string, string[]>();
  for (const link of links) {
    const list = tags.get(link.secret_id);
    if (list) list.push(link.tag_id);
    else tags.set(link.secret_id, [link.tag_id]);
  }
  return {
    secrets: secrets.map((s) => ({ id: s.id, key: s.key, version: s.version, tags: (tags.get(s.id) ?? []).sort() })),
    folders,
    imports: imports.map((i) => ({
      id: i.id,
      envId: i.import_env_id,
      path: i.import_path,
      position: i.position,
      isReplication: i.is_replication === 1,
    })),
  };
}

export function parseState(row: Pick<FolderCommitRow, "state">): FolderState {
  return JSON.parse(row.state) as FolderState;
}

/**
 * Serialises commits of one folder: PostgreSQL locks the folder row (`for no key update` does not
 * wait for the key-share locks that inserting its secrets takes), SQLite writes one at a time.
 */
export async function lockFolder(trx: Transaction<Database>, dialect: Dialect, folderId: string): Promise<void> {
  if (dialect !== "postgres") return;
  await trx.selectFrom("secret_folders").select("id").where("id", "=", folderId).forNoKeyUpdate().execute();
}

export async function lastCommitSeq(db: Db, folderId: string): Promise<number> {
  const row = await db
    .selectFrom("folder_commits")
    .select((eb) => eb.fn.max("seq").as("seq"))
    .where("folder_id", "=", folderId)
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

export async function insertCommit(db: Db, row: Insertable<FolderCommitTable>): Promise<void> {
  await db.insertInto("folder_commits").values(row).execute();
}

export async function findCommit(db: Db, commitId: string): Promise<FolderCommitRow | undefined> {
  return db.selectFrom("folder_commits").selectAll().where("id", "=", commitId).executeTakeFirst();
}

/** The commit before this one in its folder's history (undefined: the first kept). */
export async function previousCommit(db: Db, commit: FolderCommitRow): Promise<FolderCommitRow | undefined> {
  return db
    .selectFrom("folder_commits")
    .selectAll()
    .where("folder_id", "=", commit.folder_id)
    .where("seq", "<", commit.seq)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** A folder's newest commit made at or before `at` (a sub-folder's state when its parent's commit was made). */
export async function commitAtOrBefore(
  db: Db,
  folderId: string,
  at: Date | string,
): Promise<FolderCommitRow | undefined> {
  return db
    .selectFrom("folder_commits")
    .selectAll()
    .where("folder_id", "=", folderId)
    .where("created_at", "<=", at)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
}

export type CommitListing = Omit<FolderCommitRow, "state">;

export async function listCommits(
  db: Db,
  folderId: string,
  page: { offset: number; limit: number; sort: "asc" | "desc"; search?: string | undefined },
): Promise<{ rows: CommitListing[]; total: number }> {
  let base = db.selectFrom("folder_commits").where("folder_id", "=", folderId);
  if (page.search) base = base.where("message", "like", `%${page.search.replace(/[%_\\]/g, "")}%`);
  const [rows, count] = await Promise.all([
    base
      .select([
        "id",
        "project_id",
        "env_id",
        "folder_id",
        "parent_folder_id",
        "seq",
        "actor_type",
        "actor_id",
        "actor_name",
        "message",
        "created_at",
      ])
      .orderBy("seq", page.sort)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<string | number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Drops the folder's commits past the newest `keep`, and the versions of deleted secrets that only
 * those commits named (a live secret's versions stay: they are its history). `present` are the
 * secrets of the folder's newest state: usually every secret a dropped commit names, so nothing
 * more is read.
 */
export async function pruneCommits(
  db: Db,
  folderId: string,
  newestSeq: number,
  keep: number,
  present: ReadonlySet<string>,
): Promise<void> {
  const cut = newestSeq - keep;
  if (cut < 1) return;
  const dropped = await db
    .selectFrom("folder_commits")
    .select("state")
    .where("folder_id", "=", folderId)
    .where("seq", "<=", cut)
    .execute();
  if (dropped.length === 0) return;
  await db.deleteFrom("folder_commits").where("folder_id", "=", folderId).where("seq", "<=", cut).execute();
  const named = new Set(
    dropped.flatMap((row) =>
      parseState(row)
        .secrets.map((s) => s.id)
        .filter((id) => !present.has(id)),
    ),
  );
  if (named.size === 0) return;
  const ids = [...named];
  const live = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom("secrets")
      .select("id")
      .where("id", "in", ids.slice(i, i + 500))
      .execute();
    for (const row of rows) live.add(row.id);
  }
  const gone = ids.filter((id) => !live.has(id));
  if (gone.length === 0) return;
  const kept = await db.selectFrom("folder_commits").select("state").where("folder_id", "=", folderId).execute();
  const stillNamed = new Set(kept.flatMap((row) => parseState(row).secrets.map((s) => s.id)));
  const orphans = gone.filter((id) => !stillNamed.has(id));
  for (let i = 0; i < orphans.length; i += 500) {
    await db
      .deleteFrom("secret_versions")
      .where("secret_id", "in", orphans.slice(i, i + 500))
      .execute();
  }
}

/** The stored versions named by (secret id, version), keyed `id:version`. */
export async function findVersions(
  db: Db,
  wanted: readonly { id: string; version: number }[],
): Promise<Map<string, SecretVersionRow>> {
  const out = new Map<string, SecretVersionRow>();
  const want = new Set(wanted.map((w) => `${w.id}:${w.version}`));
  const ids = [...new Set(wanted.map((w) => w.id))];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom("secret_versions")
      .selectAll()
      .where("secret_id", "in", ids.slice(i, i + 500))
      .execute();
    for (const row of rows) {
      const k = `${row.secret_id}:${row.version}`;
      if (want.has(k)) out.set(k, row);
    }
  }
  return out;
}

/** The highest version each of these secrets has had (a secret brought back continues from it). */
export async function maxVersions(db: Db, secretIds: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < secretIds.length; i += 500) {
    const rows = await db
      .selectFrom("secret_versions")
      .select((eb) => ["secret_id", eb.fn.max("version").as("version")])
      .where("secret_id", "in", secretIds.slice(i, i + 500))
      .groupBy("secret_id")
      .execute();
    for (const row of rows) out.set(row.secret_id, Number(row.version));
  }
  return out;
}
