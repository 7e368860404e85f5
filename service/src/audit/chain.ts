import { createHash, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import canonicalize from "canonicalize";
import type { Compilable, CompiledQuery, Kysely } from "kysely";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import type { AuditEventTable } from "../db/schema-audit.ts";
import { nowIso, toIso } from "../lib/time.ts";

/**
 * The hash chain of each organisation's events.
 *
 * `content_hash` = SHA-256 of the event's canonical JSON (RFC 8785) over every stored field but
 * the hashes and the tombstone flag; `hash` = HMAC-SHA256(link key, prev hash ‖ org_seq ‖
 * content_hash), the first event's prev hash being 64 zeros. The keys are derived from the root
 * key, so someone who can write the database but does not hold the root key cannot rebuild the
 * chain after editing, removing or reordering events. Pruning signs what it leaves behind with a
 * second key: each tombstone, and the checkpoint that replaces a pruned prefix.
 */

export const GENESIS_HASH = "0".repeat(64);

/**
 * An event as stored, without its hashes and tombstone flag: exactly what content_hash covers. The
 * metadata columns hold canonical JSON text; `created_at` is ISO 8601, milliseconds, UTC (as both
 * databases give it back).
 */
export type EventContent = Omit<AuditEventTable, "content_hash" | "hash" | "pruned" | "created_at"> & {
  created_at: string;
};

export interface ChainKeys {
  /** Keys the links of the chain. */
  link: Buffer;
  /** Signs tombstones and checkpoints (what pruning leaves). */
  prune: Buffer;
}

export function deriveChainKeys(rootKey: Buffer): ChainKeys {
  const derive = (purpose: string) => Buffer.from(hkdfSync("sha256", rootKey, "keyhold", purpose, 32));
  return { link: derive("keyhold/audit-chain/link/v1"), prune: derive("keyhold/audit-chain/prune/v1") };
}

/** JSON text every reader and verifier gets back byte for byte (RFC 8785). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error("The value has no JSON form");
  return text;
}

const CONTENT_FIELDS = [
  "id",
  "org_id",
  "org_seq",
  "project_id",
  "project_name",
  "event_type",
  "event_metadata",
  "actor_type",
  "actor_id",
  "actor_metadata",
  "ip_address",
  "user_agent",
  "user_agent_type",
  "request_id",
  "environment",
  "secret_path",
  "secret_key",
  "created_at",
] as const satisfies readonly (keyof EventContent)[];

/** The stored row's content, as the hash covers it (the time normalised from either database's form). */
export function contentOf(row: { [K in keyof EventContent]: unknown } & { created_at: Date | string }): EventContent {
  const content = Object.fromEntries(
    CONTENT_FIELDS.map((field) => [field, row[field] ?? null]),
  ) as unknown as EventContent;
  content.created_at = toIso(row.created_at);
  content.org_seq = Number(row.org_seq);
  return content;
}

export function contentHash(content: EventContent): string {
  return createHash("sha256")
    .update(canonicalJson(contentOf(content)))
    .digest("hex");
}

const hmac = (key: Buffer, ...parts: (string | number)[]) =>
  createHmac("sha256", key).update(parts.join("\n")).digest("hex");

export function linkHash(keys: ChainKeys, prevHash: string, seq: number, content: string): string {
  return hmac(keys.link, prevHash, seq, content);
}

export function checkpointSignature(keys: ChainKeys, orgId: string, seq: number, hash: string): string {
  return hmac(keys.prune, "checkpoint", orgId, seq, hash);
}

export function tombstoneSignature(keys: ChainKeys, orgId: string, seq: number, content: string): string {
  return hmac(keys.prune, "tombstone", orgId, seq, content);
}

/** Compares two hex digests in constant time. */
export function sameDigest(a: string | null | undefined, b: string): boolean {
  if (typeof a !== "string" || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * A statement built and compiled once per database handle, then run with new values put where
 * its stand-ins landed (as db/prepared.ts does for reads): the write path of every request skips
 * Kysely's builder and compiler. Always through Kysely's executor, so that it runs on the unit of
 * work's connection.
 */
function compiledOnce<Name extends string, Row>(
  names: readonly Name[],
  build: (db: Kysely<Database>, standIns: Record<Name, string>) => Compilable<Row>,
) {
  const standIns = Object.fromEntries(names.map((name) => [name, `\u0000${name}\u0000`])) as Record<Name, string>;
  const byHandle = new WeakMap<Kysely<Database>, { compiled: CompiledQuery<Row>; slots: (Name | undefined)[] }>();
  return async (db: Kysely<Database>, values: Record<Name, unknown>): Promise<Row[]> => {
    let prepared = byHandle.get(db);
    if (!prepared) {
      const compiled = build(db, standIns).compile();
      const slots = compiled.parameters.map((value) => names.find((name) => standIns[name] === value));
      prepared = { compiled, slots };
      byHandle.set(db, prepared);
    }
    const { compiled, slots } = prepared;
    const parameters = compiled.parameters.map((value, i) => {
      const name = slots[i];
      return name === undefined ? value : values[name];
    });
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}

const headQuery = (dialect: Dialect) =>
  compiledOnce(["orgId", "projectId"], (db, v) => {
    const query = db
      .selectFrom("audit_chain_heads as h")
      .select(["h.last_seq", "h.last_hash"])
      .select((eb) =>
        eb
          .selectFrom("projects as p")
          .select("p.name")
          .where("p.id", "=", v.projectId)
          .where("p.org_id", "=", v.orgId)
          .as("project_name"),
      )
      .where("h.org_id", "=", v.orgId);
    // PostgreSQL holds the head until the commit; SQLite writes one transaction at a time.
    return dialect === "postgres" ? query.forUpdate("h") : query;
  });
const readHead = { postgres: headQuery("postgres"), sqlite: headQuery("sqlite") };

const EVENT_COLUMNS = [...CONTENT_FIELDS, "content_hash", "hash"] as const;
type EventColumn = (typeof EVENT_COLUMNS)[number];
const eventValues = (v: Record<EventColumn, string>) =>
  Object.fromEntries(EVENT_COLUMNS.map((column) => [column, v[column]])) as never;
const headValues = (v: Record<"seq" | "hash" | "at", string>) => ({
  last_seq: v.seq as unknown as number,
  last_hash: v.hash,
  updated_at: v.at,
});

const insertEvent = compiledOnce(EVENT_COLUMNS, (db, v) => db.insertInto("audit_events").values(eventValues(v)));
const moveHead = compiledOnce(["orgId", "seq", "hash", "at"], (db, v) =>
  db.updateTable("audit_chain_heads").set(headValues(v)).where("org_id", "=", v.orgId),
);
/** PostgreSQL: the event's insert and the head's move in one statement (one round trip). */
const insertAndMove = compiledOnce([...EVENT_COLUMNS, "orgId", "seq", "at"], (db, v) =>
  db
    .with("event", (q) => q.insertInto("audit_events").values(eventValues(v)))
    .updateTable("audit_chain_heads")
    .set(headValues(v))
    .where("org_id", "=", v.orgId),
);

/** The head of an organisation's chain, locked, with the name of the event's project, in one statement. */
async function lockHead(db: Kysely<Database>, dialect: Dialect, orgId: string, projectId: string | null) {
  const read = async () => (await readHead[dialect](db, { orgId, projectId: projectId ?? "" }))[0];
  const head = await read();
  if (head) return head;
  // The organisation's first event: make its head, or wait for the one another transaction made.
  await db
    .insertInto("audit_chain_heads")
    .values({ org_id: orgId, last_seq: 0, last_hash: GENESIS_HASH, updated_at: nowIso() })
    .onConflict((oc) => oc.column("org_id").doNothing())
    .execute();
  const created = await read();
  if (!created) throw new Error(`The audit chain head of organisation ${orgId} could not be made`);
  return created;
}

/**
 * Appends one event to its organisation's chain, in the caller's transaction (the unit of work's):
 * takes the next org_seq under the head's lock (with the project's name, which the event keeps),
 * hashes, inserts, moves the head (one statement on PostgreSQL). Returns the stored row.
 */
export async function appendEvent(
  db: Kysely<Database>,
  dialect: Dialect,
  keys: ChainKeys,
  event: Omit<EventContent, "org_seq" | "project_name">,
): Promise<EventContent & { content_hash: string; hash: string }> {
  const last = await lockHead(db, dialect, event.org_id, event.project_id);
  const seq = Number(last.last_seq) + 1;
  const content = contentOf({ ...event, project_name: last.project_name ?? null, org_seq: seq });
  const digest = contentHash(content);
  const hash = linkHash(keys, last.last_hash, seq, digest);
  const row = { ...content, content_hash: digest, hash };
  const head = { orgId: event.org_id, seq, hash, at: content.created_at };
  if (dialect === "postgres") await insertAndMove(db, { ...row, ...head });
  else {
    await insertEvent(db, row);
    await moveHead(db, head);
  }
  return row;
}
