import { randomBytes, randomUUID } from "node:crypto";
import { AUDIT_STREAM_PING, endpoints } from "@keyhold/contract";
import type { Kysely } from "kysely";
import { expect } from "vitest";
import type { Database } from "../db/schema.ts";
import type { TestService } from "./harness.ts";
import { type ReceivedRequest, startLoopbackPeer } from "./loopback.ts";
import { waitUntil } from "./processes.ts";

/** A POST a stream receiver got, its body parsed. */
export interface Delivery {
  body: unknown;
  headers: ReceivedRequest["headers"];
  /** The status the receiver answered. */
  status: number;
}

export interface StreamReceiver {
  /** `http://127.0.0.1:<port>/audit-stream` */
  url: string;
  /** Every ping received. */
  pings: Delivery[];
  /** Every POST other than a ping, accepted or refused, oldest first. */
  deliveries: Delivery[];
  /** The event ids of the accepted deliveries, in the order received (batches flattened). */
  acceptedIds(): string[];
  /** Refuse (500) the next `n` deliveries; pings are still accepted. */
  failNext(n: number): void;
  close(): Promise<void>;
}

const isPing = (body: unknown) => JSON.stringify(body) === JSON.stringify(AUDIT_STREAM_PING);

/**
 * A real HTTP receiver on loopback, as a team's log collector would be: it records every POST
 * and answers 200, except for the deliveries it is told to refuse (500); `delayMs` makes it
 * answer late (it has recorded the delivery already, as a collector that has stored it would).
 */
export async function startStreamReceiver(
  options: { failFirst?: number; delayMs?: number } = {},
): Promise<StreamReceiver> {
  let toFail = options.failFirst ?? 0;
  const pings: Delivery[] = [];
  const deliveries: Delivery[] = [];
  const peer = await startLoopbackPeer((request) => {
    const body: unknown = JSON.parse(request.body);
    if (isPing(body)) {
      pings.push({ body, headers: request.headers, status: 200 });
      return { body: { ok: true } };
    }
    const status = toFail > 0 ? 500 : 200;
    if (toFail > 0) toFail -= 1;
    deliveries.push({ body, headers: request.headers, status });
    const answer = { status, body: status === 200 ? { ok: true } : { error: "not now" } };
    // A slow receiver has taken the delivery before it answers.
    if (!options.delayMs) return answer;
    return new Promise<typeof answer>((resolve) => setTimeout(() => resolve(answer), options.delayMs));
  });
  return {
    url: `${peer.url}/audit-stream`,
    pings,
    deliveries,
    acceptedIds: () =>
      deliveries
        .filter((d) => d.status === 200)
        .flatMap((d) => (Array.isArray(d.body) ? d.body : [d.body]))
        .map((event) => (event as { id: string }).id),
    failNext: (n) => {
      toFail = n;
    },
    close: () => peer.close(),
  };
}

/** Creates a stream on the mid-2026 route and answers its id. */
export async function createStream(
  svc: TestService,
  url: string,
  headers: { key: string; value: string }[] = [],
): Promise<string> {
  const res = await svc.endpoint("auditLogStreams.create", {
    params: { provider: "custom" },
    body: { credentials: { url, headers } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return endpoints["auditLogStreams.create"].response.parse(res.body).auditLogStream.id;
}

/** Where events are appended: a service's database (or one opened while the service is stopped). */
export interface EventStore {
  db: Kysely<Database>;
  dialect: "sqlite" | "postgres";
  orgId: string;
}

export const storeOf = (svc: TestService): EventStore => ({
  db: svc.app.db,
  dialect: svc.info.dialect,
  orgId: svc.info.orgId,
});

/**
 * Appends `count` events to the organisation's chain directly in the database, as the audit
 * scope would (next org_seq, head moved in the same transaction), each naming its position in
 * its metadata. The chain's hashes are filler: delivery neither reads nor checks them.
 */
export async function appendEvents(store: EventStore, count: number, label = "event"): Promise<string[]> {
  const { db, dialect, orgId } = store;
  return db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    // A write first: on SQLite the transaction takes the write lock now (a read first could not
    // upgrade once another connection wrote); on PostgreSQL the head exists before it is locked.
    await trx
      .insertInto("audit_chain_heads")
      .values({ org_id: orgId, last_seq: 0, last_hash: "0".repeat(64), updated_at: now })
      .onConflict((oc) => oc.column("org_id").doNothing())
      .execute();
    const query = trx.selectFrom("audit_chain_heads").select("last_seq").where("org_id", "=", orgId);
    const head = await (dialect === "postgres" ? query.forUpdate() : query).executeTakeFirstOrThrow();
    const first = head.last_seq + 1;
    const rows = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      org_id: orgId,
      org_seq: first + i,
      project_id: null,
      project_name: null,
      event_type: "create-identity",
      event_metadata: JSON.stringify({ label, n: first + i }),
      actor_type: "identity",
      actor_id: null,
      actor_metadata: JSON.stringify({ name: "test" }),
      ip_address: "127.0.0.1",
      user_agent: "vitest",
      user_agent_type: "other",
      request_id: `req-${first + i}`,
      environment: null,
      secret_path: null,
      secret_key: null,
      created_at: now,
      content_hash: randomBytes(32).toString("hex"),
      hash: randomBytes(32).toString("hex"),
    }));
    if (rows.length > 0) await trx.insertInto("audit_events").values(rows).execute();
    await trx
      .updateTable("audit_chain_heads")
      .set({ last_seq: first + count - 1, updated_at: now })
      .where("org_id", "=", orgId)
      .execute();
    return rows.map((row) => row.id);
  });
}

/** The org_seq of the organisation's newest event (0 before any). */
export async function lastSeq(store: EventStore): Promise<number> {
  const head = await store.db
    .selectFrom("audit_chain_heads")
    .select("last_seq")
    .where("org_id", "=", store.orgId)
    .executeTakeFirst();
  return head?.last_seq ?? 0;
}

/** The ids of the organisation's events after `afterSeq`, in chain order (tombstones excluded). */
export async function eventIdsAfter(store: EventStore, afterSeq: number): Promise<string[]> {
  const rows = await store.db
    .selectFrom("audit_events")
    .select("id")
    .where("org_id", "=", store.orgId)
    .where("org_seq", ">", afterSeq)
    .where("pruned", "=", 0)
    .orderBy("org_seq")
    .execute();
  return rows.map((row) => row.id);
}

/** Waits until the receiver has accepted each of `ids` (at least once). */
export function untilAccepted(receiver: StreamReceiver, ids: readonly string[], timeoutMs = 30_000): Promise<void> {
  return waitUntil(
    `${ids.length} events at the receiver`,
    async () => {
      const accepted = new Set(receiver.acceptedIds());
      return ids.every((id) => accepted.has(id));
    },
    timeoutMs,
  );
}

/** Delivery tuned for tests: quick polls and short retries, so 20 failures take about a second. */
export const fastDelivery = {
  KEYHOLD_AUDIT_STREAM_POLL_MS: "50",
  KEYHOLD_AUDIT_STREAM_RETRY_MIN_MS: "10",
  KEYHOLD_AUDIT_STREAM_RETRY_MAX_MS: "40",
};
