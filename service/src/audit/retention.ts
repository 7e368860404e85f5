import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Database } from "../db/schema.ts";
import { nowIso, toIso } from "../lib/time.ts";
import { type ChainKeys, checkpointSignature, GENESIS_HASH, tombstoneSignature } from "./chain.ts";
import { tombstoneMark, walkChain } from "./verify.ts";

/**
 * Retention. An event older than the retention in force (its project's
 * `audit_logs_retention_days`, else its organisation's) becomes a tombstone: its content columns
 * are cleared and it carries pruning's signature instead, while its content_hash and hash stay,
 * so the chain still verifies. The contiguous prefix of tombstones at the start of a chain is
 * then deleted and replaced by a signed checkpoint in the chain's head. Every instance may run
 * this at the same time: each step only moves forward.
 */

const DAY_MS = 86_400_000;
const BATCH = 500;

/** When an event expires: its time plus the retention in force (what the lists answer as expiresAt). */
export function expiresAt(createdAt: Date | string, retentionDays: number): string {
  return new Date(new Date(toIso(createdAt)).getTime() + retentionDays * DAY_MS).toISOString();
}

export interface PruneOutcome {
  tombstoned: number;
  /** Events deleted into checkpoints. */
  compacted: number;
}

interface PruneDeps {
  db: Kysely<Database>;
  keys: ChainKeys;
  logger?: Logger;
}

const cleared = {
  project_id: null,
  project_name: null,
  event_type: null,
  actor_type: null,
  actor_id: null,
  actor_metadata: null,
  ip_address: null,
  user_agent: null,
  user_agent_type: null,
  request_id: null,
  environment: null,
  secret_path: null,
  secret_key: null,
  pruned: 1,
} as const;

/** Turns the events of `orgId` that `scope` selects and that are older than `before` into tombstones. */
async function tombstone(
  db: Kysely<Database>,
  keys: ChainKeys,
  orgId: string,
  before: string,
  scope: { projectId: string } | { exceptProjects: string[] },
): Promise<number> {
  let count = 0;
  for (;;) {
    let query = db
      .selectFrom("audit_events")
      .select(["id", "org_seq", "content_hash"])
      .where("org_id", "=", orgId)
      .where("pruned", "=", 0)
      .where("created_at", "<", before);
    query =
      "projectId" in scope
        ? query.where("project_id", "=", scope.projectId)
        : scope.exceptProjects.length > 0
          ? query.where((eb) => eb.or([eb("project_id", "is", null), eb("project_id", "not in", scope.exceptProjects)]))
          : query;
    const rows = await query.orderBy("org_seq").limit(BATCH).execute();
    if (rows.length === 0) return count;
    await db.transaction().execute(async (trx) => {
      for (const row of rows) {
        const signature = tombstoneSignature(keys, orgId, Number(row.org_seq), row.content_hash);
        await trx
          .updateTable("audit_events")
          .set({ ...cleared, event_metadata: tombstoneMark(signature) })
          .where("id", "=", row.id)
          .where("pruned", "=", 0)
          .execute();
      }
    });
    count += rows.length;
  }
}

/**
 * Replaces the prefix of tombstones at the start of `orgId`'s chain by a signed checkpoint,
 * after checking its links: pruning never signs a chain that does not hold.
 */
async function compact(deps: PruneDeps, orgId: string): Promise<number> {
  const { db, keys } = deps;
  const head = await db.selectFrom("audit_chain_heads").selectAll().where("org_id", "=", orgId).executeTakeFirst();
  if (!head) return 0;
  const from = Number(head.checkpoint_seq);
  const firstLive = await db
    .selectFrom("audit_events")
    .select((eb) => eb.fn.min("org_seq").as("seq"))
    .where("org_id", "=", orgId)
    .where("pruned", "=", 0)
    .where("org_seq", ">", from)
    .executeTakeFirst();
  const end = firstLive?.seq == null ? Number(head.last_seq) : Number(firstLive.seq) - 1;
  if (end <= from) return 0;
  const start = { seq: from, hash: from > 0 ? (head.checkpoint_hash ?? "") : GENESIS_HASH };
  const walked = await walkChain(db, keys, orgId, start, end);
  if (walked.broken) {
    deps.logger?.error(
      { orgId, seq: walked.broken.seq, eventId: walked.broken.eventId, reason: walked.broken.reason },
      "The audit chain does not hold: its pruned events are kept and no checkpoint is signed",
    );
    return 0;
  }
  return db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable("audit_chain_heads")
      .set({
        checkpoint_seq: end,
        checkpoint_hash: walked.lastHash,
        checkpoint_signature: checkpointSignature(keys, orgId, end, walked.lastHash),
        updated_at: nowIso(),
      })
      .where("org_id", "=", orgId)
      .where("checkpoint_seq", "<", end)
      .executeTakeFirst();
    // Another instance got further first: what it left is already a valid checkpoint.
    if (Number(moved.numUpdatedRows) === 0) return 0;
    const deleted = await trx
      .deleteFrom("audit_events")
      .where("org_id", "=", orgId)
      .where("org_seq", "<=", end)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  });
}

/** One pass of retention over every organisation, as of `now`. */
export async function pruneAuditEvents(deps: PruneDeps, now: Date = new Date()): Promise<PruneOutcome> {
  const { db, keys } = deps;
  const cutoff = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  const orgs = await db.selectFrom("organizations").select(["id", "audit_logs_retention_days"]).execute();
  const outcome: PruneOutcome = { tombstoned: 0, compacted: 0 };
  for (const org of orgs) {
    const projects = await db
      .selectFrom("projects")
      .select(["id", "audit_logs_retention_days"])
      .where("org_id", "=", org.id)
      .where("audit_logs_retention_days", "is not", null)
      .execute();
    for (const project of projects) {
      const before = cutoff(Number(project.audit_logs_retention_days));
      outcome.tombstoned += await tombstone(db, keys, org.id, before, { projectId: project.id });
    }
    const exceptProjects = projects.map((p) => p.id);
    outcome.tombstoned += await tombstone(db, keys, org.id, cutoff(Number(org.audit_logs_retention_days)), {
      exceptProjects,
    });
    outcome.compacted += await compact(deps, org.id);
  }
  return outcome;
}

/**
 * Runs retention every `intervalMs` (and once soon after start). `close` stops the timer and
 * waits for a pass in progress.
 */
export function scheduleAuditPruning(deps: PruneDeps & { logger: Logger }, intervalMs: number) {
  let running: Promise<void> = Promise.resolve();
  const pass = () => {
    running = running.then(async () => {
      try {
        const outcome = await pruneAuditEvents(deps);
        if (outcome.tombstoned > 0 || outcome.compacted > 0) deps.logger.info(outcome, "Audit events pruned");
      } catch (error) {
        deps.logger.error({ err: error }, "Pruning audit events failed; the next pass tries again");
      }
    });
    return running;
  };
  const first = setTimeout(() => void pass(), Math.min(intervalMs, 60_000));
  const timer = setInterval(() => void pass(), intervalMs);
  first.unref();
  timer.unref();
  return {
    runNow: pass,
    async close(): Promise<void> {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
