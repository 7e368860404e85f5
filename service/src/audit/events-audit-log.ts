import type { AuditEventTable } from "./declarations.ts";
import { orgEvent, projectEvent, projectIdOf, urlOrigin } from "./event-helpers.ts";

/** A stream's record minus its headers (credentials) and minus the path of its URL, which may hold a key. */
const streamMetadata = (stream: { id: string; provider?: string; url?: string; credentials?: { url: string } }) => ({
  streamId: stream.id,
  provider: stream.provider ?? "custom",
  url: urlOrigin(stream.credentials?.url ?? stream.url ?? ""),
});

/** The audit log's own endpoints: reading it, its retention settings and its streams. */
export const auditLogEvents = {
  // A mid-2026 server records reading the log, with no metadata, for the first page (2026-06-more/119).
  "auditLogs.listOrg": {
    type: "view-audit-logs",
    event: async ({ actor, db, query }) =>
      query.offset > 0
        ? null
        : projectEvent(
            query.projectId ? await projectIdOf(db, actor?.orgId, { projectId: query.projectId }) : null,
            {},
          ),
  },
  "auditLogs.listProject": {
    type: "view-audit-logs",
    event: async ({ actor, db, params, query }) =>
      query.offset > 0
        ? null
        : projectEvent(await projectIdOf(db, actor?.orgId, { workspaceId: params.workspaceId }), {}),
  },
  "auditLogs.verify": { none: "reads hashes of the chain, not events' content" },
  "organizations.getAuditLogsRetention": { none: "a setting, no secret value" },
  "organizations.updateAuditLogsRetention": {
    type: "update-org",
    event: ({ result }) => orgEvent({ auditLogsRetentionDays: result.auditLogsRetentionDays }),
  },

  "auditLogStreams.options": { none: "a fixed list of providers" },
  "auditLogStreams.list": { none: "streams are answered with their header values masked" },
  "auditLogStreams.status": { none: "delivery state, no event content" },
  "auditLogStreams.get": { none: "streams are answered with their header values masked" },
  "auditLogStreams.test": { none: "sends a test event to the stream; changes nothing" },
  "auditLogStreams.create": {
    type: "create-audit-log-stream",
    event: ({ result }) => orgEvent(streamMetadata(result.auditLogStream)),
  },
  "auditLogStreams.update": {
    type: "update-audit-log-stream",
    event: ({ result }) => orgEvent(streamMetadata(result.auditLogStream)),
  },
  "auditLogStreams.delete": {
    type: "delete-audit-log-stream",
    event: ({ result }) => orgEvent(streamMetadata(result.auditLogStream)),
  },
  // The October 2024 get answers the headers in clear: reading credentials is recorded.
  "auditLogStreams.getLegacy": {
    type: "get-audit-log-stream",
    event: ({ result }) => orgEvent(streamMetadata(result.auditLogStream)),
  },
  "auditLogStreams.createLegacy": {
    type: "create-audit-log-stream",
    event: ({ result }) => orgEvent(streamMetadata(result.auditLogStream)),
  },
  "auditLogStreams.updateLegacy": {
    type: "update-audit-log-stream",
    event: ({ result }) => orgEvent(streamMetadata(result.auditLogStream)),
  },
  "auditLogStreams.deleteLegacy": {
    type: "delete-audit-log-stream",
    event: ({ result }) => orgEvent(streamMetadata(result.auditLogStream)),
  },
} satisfies Partial<AuditEventTable>;
