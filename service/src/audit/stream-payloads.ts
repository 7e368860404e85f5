import { randomUUID } from "node:crypto";
import { AUDIT_STREAM_TEST_EVENT_TYPE, type AuditStreamRow, type LegacyAuditStreamEvent } from "@keyhold/contract";
import type { StreamEventRow } from "../data/audit-log-streams.ts";
import { toIso } from "../lib/time.ts";

const DAY_MS = 86_400_000;

function metadata(text: string | null): Record<string, unknown> {
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** An event as a batch stream receives it: the flat row of the recordings (2026-06-more/118). */
export function toStreamRow(event: StreamEventRow): AuditStreamRow {
  const createdAt = toIso(event.created_at);
  return {
    id: event.id,
    actor: event.actor_type,
    orgId: event.org_id,
    createdAt,
    eventType: event.event_type,
    expiresAt: new Date(Date.parse(createdAt) + event.retention_days * DAY_MS).toISOString(),
    ipAddress: event.ip_address,
    projectId: event.project_id,
    updatedAt: createdAt,
    userAgent: event.user_agent,
    actorMetadata: metadata(event.actor_metadata),
    eventMetadata: metadata(event.event_metadata),
    userAgentType: event.user_agent_type,
    requestId: event.request_id,
  };
}

/** An event as a single-event stream receives it (2024-10-more/099): the row and its project's name. */
export function toLegacyStreamEvent(event: StreamEventRow): LegacyAuditStreamEvent {
  return { ...toStreamRow(event), projectName: event.project_name };
}

/** Who asked for a test event, as it names them. */
export interface TestEventActor {
  orgId: string;
  identityId: string;
  name: string;
  authMethod: string;
}

/**
 * The one event `auditLogStreams.test` sends, shaped like a real one so that the receiver's
 * parsing is what is tested. It is not stored and has no place in the chain.
 */
export function testEvent(
  streamId: string,
  actor: TestEventActor,
  now = new Date(),
): { batch: AuditStreamRow[]; single: LegacyAuditStreamEvent } {
  const createdAt = now.toISOString();
  const row: AuditStreamRow = {
    id: randomUUID(),
    actor: "identity",
    orgId: actor.orgId,
    createdAt,
    eventType: AUDIT_STREAM_TEST_EVENT_TYPE,
    expiresAt: createdAt,
    ipAddress: null,
    projectId: null,
    updatedAt: createdAt,
    userAgent: null,
    actorMetadata: { name: actor.name, authMethod: actor.authMethod, identityId: actor.identityId },
    eventMetadata: { auditLogStreamId: streamId, message: "A test event sent on request; no change was made" },
    userAgentType: null,
    requestId: null,
  };
  return { batch: [row], single: { ...row, projectName: null } };
}
