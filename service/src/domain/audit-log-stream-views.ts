import {
  type AuditLogStream,
  type AuditLogStreamStatus,
  type LegacyAuditLogStreamSchema,
  MASKED_HEADER_VALUE,
  type StreamHeader,
} from "@keyhold/contract";
import type { z } from "zod";
import type { AuditLogStreamRow } from "../data/audit-log-streams.ts";
import { toIso, toIsoOrNull } from "../lib/time.ts";

type LegacyAuditLogStream = z.input<typeof LegacyAuditLogStreamSchema>;

/** Streams made on the mid-2026 routes send batches; those made on the October 2024 route, one event per POST. */
export const streamMode = (row: Pick<AuditLogStreamRow, "api">) => (row.api === "2026" ? "batch" : "single");

/** The mid-2026 record: header values masked (2026-06-more/004). */
export function toStream(row: AuditLogStreamRow, headers: readonly StreamHeader[]): AuditLogStream {
  return {
    id: row.id,
    orgId: row.org_id,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    streamMode: streamMode(row),
    filters: row.filters === null ? null : (JSON.parse(row.filters) as Record<string, unknown>),
    provider: row.provider,
    credentials: { url: row.url, headers: headers.map(({ key }) => ({ key, value: MASKED_HEADER_VALUE })) },
  };
}

/**
 * The October 2024 record (2024-10-more/003); `get` adds the headers in clear, as that server
 * answered them to the organisation's admins who set them (007).
 */
export function toLegacyStream(row: AuditLogStreamRow, headers?: readonly StreamHeader[]): LegacyAuditLogStream {
  return {
    id: row.id,
    url: row.url,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    ...(headers && { headers: headers.map(({ key, value }) => ({ key, value })) }),
  };
}

export function toStreamStatus(row: AuditLogStreamRow, backlog: number): AuditLogStreamStatus {
  return {
    id: row.id,
    provider: row.provider,
    url: row.url,
    streamMode: streamMode(row),
    backlog,
    lastDeliveredSeq: row.cursor_seq,
    lastSuccessAt: toIsoOrNull(row.last_success_at),
    lastError: row.last_error,
    lastErrorAt: toIsoOrNull(row.last_error_at),
    failures: row.failures,
    nextAttemptAt: toIsoOrNull(row.next_attempt_at),
  };
}
