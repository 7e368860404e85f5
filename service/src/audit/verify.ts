import type { AuditChainVerification } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import {
  type ChainKeys,
  checkpointSignature,
  contentHash,
  contentOf,
  GENESIS_HASH,
  linkHash,
  sameDigest,
  tombstoneSignature,
} from "./chain.ts";

type Broken = NonNullable<AuditChainVerification["firstBroken"]>;

const BATCH = 1_000;

/** The signature a tombstone carries in its metadata column (its content is gone). */
export function tombstoneMark(signature: string): string {
  return JSON.stringify({ tombstone: signature });
}

function markedSignature(metadata: string | null): string | undefined {
  try {
    const mark = JSON.parse(metadata ?? "null") as { tombstone?: unknown } | null;
    return typeof mark?.tombstone === "string" ? mark.tombstone : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Walks the links of `orgId`'s chain after `from` (the checkpoint, or the start) up to `toSeq`:
 * each stored event must be the next number, its content must hash to its content_hash (a
 * tombstone must carry pruning's signature instead), and its hash must follow from the previous
 * one. Answers how many were checked, the last hash, and the first broken link if any.
 */
export async function walkChain(
  db: Kysely<Database>,
  keys: ChainKeys,
  orgId: string,
  from: { seq: number; hash: string },
  toSeq: number,
): Promise<{ checked: number; lastHash: string; broken: Broken | null }> {
  let prev = from.hash;
  let expected = from.seq + 1;
  let checked = 0;
  while (expected <= toSeq) {
    const rows = await db
      .selectFrom("audit_events")
      .selectAll()
      .where("org_id", "=", orgId)
      .where("org_seq", ">=", expected)
      .where("org_seq", "<=", toSeq)
      .orderBy("org_seq")
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      const seq = Number(row.org_seq);
      const at = (reason: string, eventId: string | null = row.id): Broken => ({ seq: expected, eventId, reason });
      if (seq !== expected) {
        const broken = at(`event ${expected} is missing: the next stored event is ${seq} (${row.id})`, null);
        return { checked, lastHash: prev, broken };
      }
      if (Number(row.pruned) === 1) {
        const signature = markedSignature(row.event_metadata);
        if (!sameDigest(signature, tombstoneSignature(keys, orgId, seq, row.content_hash))) {
          return {
            checked,
            lastHash: prev,
            broken: at("a tombstone that pruning did not make (its signature is wrong)"),
          };
        }
      } else if (!sameDigest(row.content_hash, contentHash(contentOf(row)))) {
        return { checked, lastHash: prev, broken: at("the event's content does not match its content hash (edited)") };
      }
      if (!sameDigest(row.hash, linkHash(keys, prev, seq, row.content_hash))) {
        const reason = "the event's hash does not follow from the previous event (edited, removed or reordered)";
        return { checked, lastHash: prev, broken: at(reason) };
      }
      prev = row.hash;
      expected++;
      checked++;
    }
  }
  if (expected <= toSeq) {
    const broken = { seq: expected, eventId: null, reason: `events ${expected} to ${toSeq} are missing` };
    return { checked, lastHash: prev, broken };
  }
  return { checked, lastHash: prev, broken: null };
}

async function verifyOnce(db: Kysely<Database>, keys: ChainKeys, orgId: string): Promise<AuditChainVerification> {
  const head = await db.selectFrom("audit_chain_heads").selectAll().where("org_id", "=", orgId).executeTakeFirst();
  if (!head) {
    const stray = await db
      .selectFrom("audit_events")
      .select(["id", "org_seq"])
      .where("org_id", "=", orgId)
      .orderBy("org_seq")
      .limit(1)
      .executeTakeFirst();
    const firstBroken = stray
      ? { seq: Number(stray.org_seq), eventId: stray.id, reason: "events exist but the chain has no head" }
      : null;
    return { orgId, ok: !stray, checkedEvents: 0, checkpoint: null, lastSeq: 0, firstBroken };
  }
  const lastSeq = Number(head.last_seq);
  const checkpointSeq = Number(head.checkpoint_seq);
  const checkpoint = checkpointSeq > 0 ? { seq: checkpointSeq, hash: head.checkpoint_hash ?? "" } : null;
  const result = (checkedEvents: number, firstBroken: Broken | null): AuditChainVerification => ({
    orgId,
    ok: firstBroken === null,
    checkedEvents,
    checkpoint,
    lastSeq,
    firstBroken,
  });
  if (
    checkpoint &&
    !sameDigest(head.checkpoint_signature, checkpointSignature(keys, orgId, checkpoint.seq, checkpoint.hash))
  ) {
    return result(0, { seq: checkpoint.seq, eventId: null, reason: "the pruning checkpoint's signature is wrong" });
  }
  const from = checkpoint ?? { seq: 0, hash: GENESIS_HASH };
  const walked = await walkChain(db, keys, orgId, from, lastSeq);
  if (walked.broken) return result(walked.checked, walked.broken);
  if (!sameDigest(head.last_hash, walked.lastHash)) {
    return result(walked.checked, {
      seq: lastSeq,
      eventId: null,
      reason: "the chain's head does not match its last event",
    });
  }
  return result(walked.checked, null);
}

/**
 * Verifies one organisation's chain from its checkpoint to its head. Pruning may delete a prefix
 * while the walk runs (the walk sees a gap); a break is therefore confirmed by a second walk,
 * which starts from the checkpoint as it is then.
 */
export async function verifyChain(
  db: Kysely<Database>,
  keys: ChainKeys,
  orgId: string,
): Promise<AuditChainVerification> {
  const first = await verifyOnce(db, keys, orgId);
  return first.ok ? first : verifyOnce(db, keys, orgId);
}

/** Every organisation's chain, in the order of their ids. */
export async function verifyAllChains(db: Kysely<Database>, keys: ChainKeys): Promise<AuditChainVerification[]> {
  const orgs = await db.selectFrom("organizations").select("id").orderBy("id").execute();
  const results: AuditChainVerification[] = [];
  for (const { id } of orgs) results.push(await verifyChain(db, keys, id));
  return results;
}

/** One line per organisation, as the command prints it. */
export function describeVerification(v: AuditChainVerification): string {
  const from = v.checkpoint ? `from the checkpoint at ${v.checkpoint.seq}` : "from the first event";
  if (v.ok)
    return `organisation ${v.orgId}: the chain holds (${v.checkedEvents} events checked ${from}, last ${v.lastSeq})`;
  const broken = v.firstBroken as Broken;
  const event = broken.eventId ? ` (event ${broken.eventId})` : "";
  return `organisation ${v.orgId}: BROKEN at sequence ${broken.seq}${event}: ${broken.reason}`;
}
