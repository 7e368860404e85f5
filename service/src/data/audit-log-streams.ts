import type { Kysely, Selectable, Transaction, Updateable } from "kysely";
import type { AuditLogStreamTable } from "../db/schema-audit.ts";
import type { Database } from "../db/schema.ts";

type Db = Kysely<Database> | Transaction<Database>;

export type AuditLogStreamRow = Selectable<AuditLogStreamTable>;

export async function insertStream(
  db: Db,
  row: Pick<
    AuditLogStreamRow,
    "id" | "org_id" | "provider" | "api" | "url" | "sealed_headers" | "filters" | "cursor_seq"
  > & { created_at: string; updated_at: string },
): Promise<void> {
  await db.insertInto("audit_log_streams").values(row).execute();
}

export async function findStream(db: Db, orgId: string, id: string): Promise<AuditLogStreamRow | undefined> {
  return db
    .selectFrom("audit_log_streams")
    .selectAll()
    .where("id", "=", id)
    .where("org_id", "=", orgId)
    .executeTakeFirst();
}

export async function listStreams(db: Db, orgId: string): Promise<AuditLogStreamRow[]> {
  return db
    .selectFrom("audit_log_streams")
    .selectAll()
    .where("org_id", "=", orgId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

export async function countStreams(db: Db, orgId: string): Promise<number> {
  const row = await db
    .selectFrom("audit_log_streams")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("org_id", "=", orgId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateStream(db: Db, id: string, patch: Updateable<AuditLogStreamTable>): Promise<void> {
  await db.updateTable("audit_log_streams").set(patch).where("id", "=", id).execute();
}

export async function deleteStream(db: Db, id: string): Promise<void> {
  await db.deleteFrom("audit_log_streams").where("id", "=", id).execute();
}

/** The org_seq of the organisation's newest event (0 before its first): where a new stream starts. */
export async function lastEventSeq(db: Db, orgId: string): Promise<number> {
  const head = await db
    .selectFrom("audit_chain_heads")
    .select("last_seq")
    .where("org_id", "=", orgId)
    .executeTakeFirst();
  return head?.last_seq ?? 0;
}

/** Events of the organisation after `afterSeq` that the receiver has not accepted yet (tombstones excluded). */
export async function countEventsAfter(db: Db, orgId: string, afterSeq: number): Promise<number> {
  const row = await db
    .selectFrom("audit_events")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("org_id", "=", orgId)
    .where("org_seq", ">", afterSeq)
    .where("pruned", "=", 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** An event as streams send it, with the retention in force (the project's, else the organisation's). */
export interface StreamEventRow {
  id: string;
  org_id: string;
  org_seq: number;
  project_id: string | null;
  project_name: string | null;
  event_type: string | null;
  event_metadata: string | null;
  actor_type: string | null;
  actor_metadata: string | null;
  ip_address: string | null;
  user_agent: string | null;
  user_agent_type: string | null;
  request_id: string | null;
  created_at: Date | string;
  retention_days: number;
}

/** The next events of the organisation after `afterSeq`, in chain order; tombstones are skipped. */
export async function eventsAfter(db: Db, orgId: string, afterSeq: number, limit: number): Promise<StreamEventRow[]> {
  const rows = await db
    .selectFrom("audit_events as e")
    .innerJoin("organizations as o", "o.id", "e.org_id")
    .leftJoin("projects as p", "p.id", "e.project_id")
    .select([
      "e.id",
      "e.org_id",
      "e.org_seq",
      "e.project_id",
      "e.project_name",
      "e.event_type",
      "e.event_metadata",
      "e.actor_type",
      "e.actor_metadata",
      "e.ip_address",
      "e.user_agent",
      "e.user_agent_type",
      "e.request_id",
      "e.created_at",
      "o.audit_logs_retention_days as org_retention_days",
      "p.audit_logs_retention_days as project_retention_days",
    ])
    .where("e.org_id", "=", orgId)
    .where("e.org_seq", ">", afterSeq)
    .where("e.pruned", "=", 0)
    .orderBy("e.org_seq")
    .limit(limit)
    .execute();
  return rows.map(({ org_retention_days, project_retention_days, ...row }) => ({
    ...row,
    retention_days: project_retention_days ?? org_retention_days,
  }));
}

// ---- delivery state: leases, cursor, failures ----

/**
 * Streams some instance may deliver now: due (not waiting out a backoff) and not held by another
 * instance's unexpired lease.
 */
export async function dueStreamIds(db: Db, owner: string, now: string): Promise<string[]> {
  const rows = await db
    .selectFrom("audit_log_streams")
    .select("id")
    .where((eb) => eb.or([eb("next_attempt_at", "is", null), eb("next_attempt_at", "<=", now)]))
    .where((eb) => eb.or([eb("lease_owner", "is", null), eb("lease_owner", "=", owner), eb("lease_until", "<", now)]))
    .orderBy("created_at")
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Takes (or renews) the stream's lease for `owner` until `until`, unless another instance holds
 * an unexpired one: one conditional UPDATE, so two instances racing for it cannot both win.
 * Answers the stream as it stands once taken, or undefined.
 */
export async function takeLease(
  db: Db,
  id: string,
  owner: string,
  now: string,
  until: string,
): Promise<AuditLogStreamRow | undefined> {
  return db
    .updateTable("audit_log_streams")
    .set({ lease_owner: owner, lease_until: until })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("lease_owner", "is", null), eb("lease_owner", "=", owner), eb("lease_until", "<", now)]))
    .returningAll()
    .executeTakeFirst();
}

/**
 * The receiver accepted every event up to `seq`: the cursor moves there and the lease is renewed,
 * if `owner` still holds it. Answers whether it did (false: another instance took the stream over).
 */
export async function recordDelivered(
  db: Db,
  id: string,
  owner: string,
  seq: number,
  now: string,
  leaseUntil: string,
): Promise<boolean> {
  const result = await db
    .updateTable("audit_log_streams")
    .set({
      cursor_seq: seq,
      last_success_at: now,
      failures: 0,
      next_attempt_at: null,
      lease_until: leaseUntil,
    })
    .where("id", "=", id)
    .where("lease_owner", "=", owner)
    .where("cursor_seq", "<", seq)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A delivery failed: the error and the next attempt are recorded and the lease is given up, so
 * that whichever instance is first when the wait is over tries again (another may reach the
 * receiver when this one cannot).
 */
export async function recordFailure(
  db: Db,
  id: string,
  owner: string,
  failure: { error: string; at: string; failures: number; nextAttemptAt: string },
): Promise<void> {
  await db
    .updateTable("audit_log_streams")
    .set({
      last_error: failure.error,
      last_error_at: failure.at,
      failures: failure.failures,
      next_attempt_at: failure.nextAttemptAt,
      lease_owner: null,
      lease_until: null,
    })
    .where("id", "=", id)
    .where("lease_owner", "=", owner)
    .execute();
}

/** Gives up every lease `owner` holds (a clean stop), so another instance need not wait them out. */
export async function releaseLeases(db: Db, owner: string): Promise<void> {
  await db
    .updateTable("audit_log_streams")
    .set({ lease_owner: null, lease_until: null })
    .where("lease_owner", "=", owner)
    .execute();
}
