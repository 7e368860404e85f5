import { randomUUID } from "node:crypto";
import os from "node:os";
import type { StreamHeader } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { AuditStreamConfig } from "../config.ts";
import {
  type AuditLogStreamRow,
  dueStreamIds,
  eventsAfter,
  recordDelivered,
  recordFailure,
  releaseLeases,
  takeLease,
} from "../data/audit-log-streams.ts";
import type { Database } from "../db/schema.ts";
import type { Sealer } from "../lib/sealing.ts";
import { toMillis } from "../lib/time.ts";
import { onAuditEventsCommitted } from "./committed.ts";
import { postToReceiver, RECEIVER_TIMEOUT_MS, type ReceiverOutcome } from "./stream-http.ts";
import { toLegacyStreamEvent, toStreamRow } from "./stream-payloads.ts";

/**
 * Delivers each organisation's audit events to its streams: at least once, in chain order per
 * stream, surviving restarts and shared by the instances on one database.
 *
 * - The stream row holds the cursor: the org_seq of the last event its receiver accepted (2xx).
 *   Delivery reads the events after it, sends them and only then moves it, so a crash between
 *   the POST and the move sends those events again (the receiver tells them by `id`), and an
 *   event is never skipped: events are committed in org_seq order (the chain head is locked
 *   until the commit), so nothing can appear later below the cursor.
 * - One instance at a time delivers a stream: it takes a lease (`lease_owner`, `lease_until`)
 *   with a conditional UPDATE and renews it with each step. A crashed instance's lease runs out
 *   and another takes the stream over from the cursor; that is the only way an event reaches a
 *   receiver twice apart from a crash or a lost answer.
 * - A failure records `last_error`, counts `failures` and waits before the next attempt: doubling
 *   from `retryMinMs` up to `retryMaxMs`, with jitter, so that receivers coming back are not hit by
 *   every instance at once.
 * - Each instance polls every `pollMs`; an event committed by this process wakes it at once
 *   (`auditEventsCommitted`, called by the audit scope after its commit).
 */

export interface StreamDeliveryDeps {
  db: Kysely<Database>;
  sealer: Sealer;
  logger: Logger;
  options: AuditStreamConfig;
}

export interface StreamDelivery {
  /** This instance's name in `lease_owner`. */
  owner: string;
  /** Looks for work now instead of at the next poll. */
  nudge(): void;
  /** Stops: waits for the deliveries under way (bounded by the receiver timeout), then gives up the leases. */
  close(): Promise<void>;
}

/** Consecutive batches one stream may send in one round before the others get their turn. */
const BATCHES_PER_ROUND = 20;

/** The sealed headers' associated data: the row and column they belong to. */
export const sealedHeadersColumn = (streamId: string) => `audit_log_streams:${streamId}:sealed_headers`;

export function openHeaders(sealer: Sealer, row: Pick<AuditLogStreamRow, "id" | "sealed_headers">): StreamHeader[] {
  return JSON.parse(sealer.open(row.sealed_headers, sealedHeadersColumn(row.id))) as StreamHeader[];
}

/** The wait before attempt `failures + 1`: doubling from `min` up to `max`, the upper half jittered. */
export function retryDelay(failures: number, min: number, max: number, random = Math.random): number {
  const ceiling = Math.min(max, min * 2 ** Math.min(failures - 1, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export function startStreamDelivery({ db, sealer, logger, options }: StreamDeliveryDeps): StreamDelivery {
  const owner = `${os.hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const log = logger.child({ component: "audit-streams" });
  // A POST must end well inside the lease that covers it.
  const timeoutMs = Math.min(RECEIVER_TIMEOUT_MS, Math.floor(options.leaseMs / 3));
  let closed = false;
  let woken = false;
  let wake: (() => void) | undefined;

  const nudge = () => {
    woken = true;
    wake?.();
  };
  const unsubscribe = onAuditEventsCommitted(nudge);

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      wake = done;
    });

  const leaseUntil = (now: number) => new Date(now + options.leaseMs).toISOString();

  async function fail(stream: AuditLogStreamRow, outcome: ReceiverOutcome): Promise<void> {
    const now = Date.now();
    const failures = stream.failures + 1;
    const delay = retryDelay(failures, options.retryMinMs, options.retryMaxMs);
    log.warn(
      { streamId: stream.id, orgId: stream.org_id, failures, retryInMs: delay, error: outcome.error },
      "Audit log stream delivery failed; retrying later",
    );
    await recordFailure(db, stream.id, owner, {
      error: outcome.error ?? "Delivery failed",
      at: new Date(now).toISOString(),
      failures,
      nextAttemptAt: new Date(now + delay).toISOString(),
    });
  }

  /**
   * Sends one batch (or, for a single-event stream, up to one batch of events one by one).
   * Answers whether the stream may have more to send now.
   */
  async function step(id: string): Promise<boolean> {
    const now = Date.now();
    const stream = await takeLease(db, id, owner, new Date(now).toISOString(), leaseUntil(now));
    if (!stream) return false;
    if (stream.next_attempt_at !== null && toMillis(stream.next_attempt_at) > now) return false;
    const events = await eventsAfter(db, stream.org_id, stream.cursor_seq, options.batchSize);
    if (events.length === 0) return false;
    let headers: StreamHeader[];
    try {
      headers = openHeaders(sealer, stream);
    } catch {
      // Visible in the stream's state, and retried with backoff like any failure.
      await fail(stream, {
        ok: false,
        status: null,
        error: "The stream's stored headers could not be opened with this service's root key",
      });
      return false;
    }

    if (stream.api === "2026") {
      const outcome = await postToReceiver(stream.url, headers, events.map(toStreamRow), timeoutMs);
      if (!outcome.ok) {
        await fail(stream, outcome);
        return false;
      }
      const last = events[events.length - 1] as (typeof events)[number];
      const at = Date.now();
      const held = await recordDelivered(db, id, owner, last.org_seq, new Date(at).toISOString(), leaseUntil(at));
      return held && events.length === options.batchSize;
    }

    for (const event of events) {
      if (closed) return false;
      const outcome = await postToReceiver(stream.url, headers, toLegacyStreamEvent(event), timeoutMs);
      if (!outcome.ok) {
        await fail(stream, outcome);
        return false;
      }
      const at = Date.now();
      if (!(await recordDelivered(db, id, owner, event.org_seq, new Date(at).toISOString(), leaseUntil(at)))) {
        return false;
      }
    }
    return events.length === options.batchSize;
  }

  async function deliverStream(id: string): Promise<void> {
    try {
      for (let batch = 0; batch < BATCHES_PER_ROUND && !closed; batch++) {
        if (!(await step(id))) return;
      }
      // More is waiting: the next round comes at once.
      woken = true;
    } catch (error) {
      log.error({ err: error, streamId: id }, "Audit log stream delivery stopped on an error; retrying next round");
    }
  }

  async function round(): Promise<void> {
    const ids = await dueStreamIds(db, owner, new Date().toISOString());
    // Streams are delivered side by side: a slow receiver does not hold up the others.
    await Promise.all(ids.map((id) => deliverStream(id)));
  }

  const running = (async () => {
    while (!closed) {
      woken = false;
      try {
        await round();
      } catch (error) {
        log.error({ err: error }, "Could not look for audit events to stream; retrying next round");
      }
      if (!closed && !woken) await pause(options.pollMs);
    }
  })();

  return {
    owner,
    nudge,
    async close() {
      closed = true;
      unsubscribe();
      wake?.();
      await running;
      await releaseLeases(db, owner);
    },
  };
}
