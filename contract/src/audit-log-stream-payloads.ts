import { z } from "zod";
import { Timestamp } from "./common.ts";

/**
 * What Keyhold sends to an audit log stream's URL, as the recorded servers sent it: a ping when
 * the stream is created or changed, then the organisation's events in order. Streams made on the
 * mid-2026 routes receive JSON arrays of flat rows (2026-06-more/118); streams made on the October
 * 2024 route receive one object per POST (2024-10-more/099), which also names the project.
 * Delivery is at least once: a receiver tells a repeat by the event's `id`.
 */

/** The body of the POST that checks a URL before a stream is saved (2026-06-more/117). */
export const AUDIT_STREAM_PING = { ping: "ok" } as const;

/** The `eventType` of the one event `auditLogStreams.test` sends; no stored event has it. */
export const AUDIT_STREAM_TEST_EVENT_TYPE = "test-audit-log-stream";

/** One event as a batch stream receives it. */
export const AuditStreamRowSchema = z.object({
  id: z.string(),
  actor: z.string().nullable(),
  orgId: z.string(),
  createdAt: Timestamp,
  eventType: z.string().nullable(),
  expiresAt: Timestamp,
  ipAddress: z.string().nullable(),
  projectId: z.string().nullable(),
  updatedAt: Timestamp,
  userAgent: z.string().nullable(),
  actorMetadata: z.record(z.string(), z.unknown()),
  eventMetadata: z.record(z.string(), z.unknown()),
  userAgentType: z.string().nullable(),
  /** Keyhold's: the request that produced the event, as its answer and the service's log name it. */
  requestId: z.string().nullable(),
});
export type AuditStreamRow = z.infer<typeof AuditStreamRowSchema>;

/** The body of one POST to a batch stream: events in the organisation's order, oldest first. */
export const AuditStreamBatchSchema = z.array(AuditStreamRowSchema);

/** One event as a single-event (October 2024) stream receives it, one per POST. */
export const LegacyAuditStreamEventSchema = AuditStreamRowSchema.extend({ projectName: z.string().nullable() });
export type LegacyAuditStreamEvent = z.infer<typeof LegacyAuditStreamEventSchema>;
