import { createHash, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import canonicalize from "canonicalize";
import type { Kysely } from "kysely";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
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

/** An event as stored, without its hashes and tombstone flag: exactly what content_hash covers. */
export interface EventContent {
  id: string;
  org_id: string;
  org_seq: number;
  project_id: string | null;
  project_name: string | null;
  event_type: string | null;
  /** Canonical JSON text. */
  event_metadata: string | null;
  actor_type: string | null;
  actor_id: string | null;
  /** Canonical JSON text. */
  actor_metadata: string | null;
  ip_address: string | null;
  user_agent: string | null;
  user_agent_type: string | null;
  request_id: string | null;
  environment: string | null;
  secret_path: string | null;
  secret_key: string | null;
  /** ISO 8601, milliseconds, UTC (as both databases give it back). */
  created_at: string;
}

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
  const content = Object.fromEntries(CONTENT_FIELDS.map((field) => [field, row[field] ?? null])) as unknown as EventContent;
  content.created_at = toIso(row.created_at);
  content.org_seq = Number(row.org_seq);
  return content;
}

export function contentHash(content: EventContent): string {
  return createHash("sha256").update(canonicalJson(contentOf(content))).digest("hex");
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

/** The head of an organisation's chain, locked until the transaction ends (PostgreSQL; SQLite writes one at a time). */
async function lockHead(db: Kysely<Database>, dialect: Dialect, orgId: string) {
  const read = () => {
    const query = db
      .selectFrom("audit_chain_heads")
      .select(["last_seq", "last_hash"])
      .where("org_id", "=", orgId);
    return (dialect === "postgres" ? query.forUpdate() : query).executeTakeFirst();
  };
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
 * takes the next org_seq under the head's lock, hashes, inserts, moves the head. Returns the row.
 */
export async function appendEvent(
  db: Kysely<Database>,
  dialect: Dialect,
  keys: ChainKeys,
  event: Omit<EventContent, "org_seq">,
): Promise<EventContent & { content_hash: string; hash: string }> {
  const head = await lockHead(db, dialect, event.org_id);
  const seq = Number(head.last_seq) + 1;
  const content = contentOf({ ...event, org_seq: seq });
  const digest = contentHash(content);
  const hash = linkHash(keys, head.last_hash, seq, digest);
  const row = { ...content, content_hash: digest, hash };
  await db.insertInto("audit_events").values(row).execute();
  await db
    .updateTable("audit_chain_heads")
    .set({ last_seq: seq, last_hash: hash, updated_at: content.created_at })
    .where("org_id", "=", event.org_id)
    .execute();
  return row;
}
