import { z } from "zod";
import { AUDIT_ACTOR_TYPES, INFISICAL_AUDIT_EVENT_TYPES } from "./audit-event-types.ts";
import { queryWholeNumber, Timestamp, wholeNumber } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";
import { ProjectRecordSchema } from "./projects.ts";

export { AUDIT_ACTOR_TYPES, INFISICAL_AUDIT_EVENT_TYPES } from "./audit-event-types.ts";

/**
 * Who did what. Every change made through the service, every read of a secret value, every
 * sign-in and every token issued or revoked is one audit event, written in the same transaction
 * as the change it records. Events of an organisation form a hash chain that a verification walks.
 *
 * The list endpoints are Infisical's (the org route of mid-2026 and the project route both
 * generations have), answering the recorded item shape plus Keyhold's `requestId`.
 */

/**
 * Event types Keyhold writes for changes and reads Infisical records under no name of its own. They
 * follow Infisical's naming (verb first, kebab case) and come after Infisical's in filters:
 * - access tokens renewed or revoked with the token in the body (the sign-in endpoints' siblings);
 * - a token-auth token revoked (Infisical names creating, reading and updating one, not revoking);
 * - an identity's additional privileges in a project (Infisical records none);
 * - an integration updated (Infisical records none);
 * - a secret's versions read, and a legacy snapshot read: both answer values;
 * - tags created and deleted (Infisical records none);
 * - audit log streams created, read with their headers (the October 2024 get), updated and deleted.
 * A project's retention change is Infisical's update-project and the organisation default update-org.
 */
export const KEYHOLD_AUDIT_EVENT_TYPES = [
  "renew-identity-access-token",
  "revoke-identity-access-token",
  "revoke-token-identity-token-auth",
  "create-identity-project-additional-privilege",
  "update-identity-project-additional-privilege",
  "delete-identity-project-additional-privilege",
  "update-integration",
  "get-secret-versions",
  "get-secret-snapshot",
  "create-tag",
  "delete-tag",
  "create-audit-log-stream",
  "get-audit-log-stream",
  "update-audit-log-stream",
  "delete-audit-log-stream",
] as const;

export const AUDIT_EVENT_TYPES = [...INFISICAL_AUDIT_EVENT_TYPES, ...KEYHOLD_AUDIT_EVENT_TYPES] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];
export const AuditEventTypeSchema = z.enum(AUDIT_EVENT_TYPES);

export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];
export const AuditActorTypeSchema = z.enum(AUDIT_ACTOR_TYPES);

/** How Infisical classifies a caller's User-Agent header. */
export const USER_AGENT_TYPES = [
  "web",
  "cli",
  "k8-operator",
  "terraform",
  "other",
  "InfisicalPythonSDK",
  "InfisicalNodeSDK",
] as const;
export type UserAgentType = (typeof USER_AGENT_TYPES)[number];
export const UserAgentTypeSchema = z.enum(USER_AGENT_TYPES);

/** One audit event as the list endpoints answer it (recordings 2026-06-more/027–042). */
export const AuditLogSchema = z.object({
  id: z.string(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  userAgentType: z.string().nullable(),
  expiresAt: Timestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  orgId: z.string(),
  projectId: z.string().nullable(),
  projectName: z.string().nullable(),
  event: z.object({ type: z.string(), metadata: z.record(z.string(), z.unknown()) }),
  actor: z.object({ type: z.string(), metadata: z.record(z.string(), z.unknown()) }),
  /** Keyhold's: the id of the request that produced the event, as its answer and the service's log name it. */
  requestId: z.string().nullable().optional(),
});
export type AuditLog = z.infer<typeof AuditLogSchema>;

export const AuditLogListSchema = z.object({ auditLogs: z.array(AuditLogSchema) });

/** The most a list answers at once, and the widest date window it covers. */
export const AUDIT_LOG_PAGE_MAX = 1000;
export const AUDIT_LOG_WINDOW_MONTHS = 3;

/** "k=v,k2=v2": events whose metadata has each key at that value. */
const EventMetadataFilter = z
  .string()
  .optional()
  .transform((text, ctx) => {
    if (text === undefined || text.trim() === "") return undefined;
    const pairs: Record<string, string> = {};
    for (const part of text.split(",")) {
      const at = part.indexOf("=");
      if (at <= 0) {
        ctx.addIssue({ code: "custom", message: "eventMetadata must be key=value pairs separated by commas" });
        return z.NEVER;
      }
      pairs[part.slice(0, at).trim()] = part.slice(at + 1).trim();
    }
    return pairs;
  });

/** A comma-separated list of event types, each one of AUDIT_EVENT_TYPES. */
const EventTypeList = z
  .string()
  .optional()
  .transform((text) => (text === undefined || text.trim() === "" ? undefined : text.split(",").map((t) => t.trim())))
  .pipe(z.array(AuditEventTypeSchema).optional());

const listFilters = {
  environment: z.string().trim().min(1).optional(),
  secretPath: z.string().trim().min(1).optional(),
  secretKey: z.string().trim().min(1).optional(),
  actorType: AuditActorTypeSchema.optional(),
  actor: z.string().trim().min(1).optional().describe("An actor id: an identity's id for actorType identity"),
  userAgentType: UserAgentTypeSchema.optional(),
  eventMetadata: EventMetadataFilter,
  startDate: Timestamp.optional().describe("Default: 00:00 UTC today"),
  endDate: Timestamp.optional().describe("Default: now"),
  offset: queryWholeNumber(0).default(0),
  limit: queryWholeNumber(1, AUDIT_LOG_PAGE_MAX).default(20),
};

/** The date window's rules, as a mid-2026 server answers them (recordings 047, 048). */
function checkWindow(query: { startDate?: string | undefined; endDate?: string | undefined }, ctx: z.RefinementCtx) {
  if (!query.startDate || !query.endDate) return;
  const start = new Date(query.startDate);
  const end = new Date(query.endDate);
  if (end < start) {
    ctx.addIssue({ code: "custom", path: ["endDate"], message: "End date cannot be before start date" });
    return;
  }
  const limit = new Date(start);
  limit.setUTCMonth(limit.getUTCMonth() + AUDIT_LOG_WINDOW_MONTHS);
  if (end > limit) ctx.addIssue({ code: "custom", path: ["endDate"], message: "Dates must be within 3 months" });
}

/** Environments, folders and keys belong to a project: the org route filters by them only within one. */
function checkProjectFilters(
  query: { projectId?: string | undefined; environment?: string; secretPath?: string; secretKey?: string },
  ctx: z.RefinementCtx,
) {
  if (query.projectId !== undefined) return;
  for (const field of ["environment", "secretPath", "secretKey"] as const) {
    if (query[field] !== undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: `${field} can be used only together with projectId` });
    }
  }
}

export const AuditLogOrgQuery = z
  .object({ projectId: z.string().trim().min(1).optional(), eventType: EventTypeList, ...listFilters })
  .superRefine(checkWindow)
  .superRefine(checkProjectFilters);
export type AuditLogOrgQueryInput = z.input<typeof AuditLogOrgQuery>;
export type AuditLogOrgQueryOutput = z.output<typeof AuditLogOrgQuery>;

/** The project route takes one event type (recording 052). */
export const AuditLogProjectQuery = z
  .object({ eventType: AuditEventTypeSchema.optional(), ...listFilters })
  .superRefine(checkWindow);

/** The outcome of walking one organisation's chain. */
export const AuditChainVerificationSchema = z.object({
  orgId: z.string(),
  ok: z.boolean(),
  /** Events whose content and link were checked (tombstones count: their link is checked). */
  checkedEvents: z.number().int(),
  /** Where the walk started: the signed checkpoint left by pruning, or null from the first event. */
  checkpoint: z.object({ seq: z.number().int(), hash: z.string() }).nullable(),
  lastSeq: z.number().int(),
  firstBroken: z.object({ seq: z.number().int(), eventId: z.string().nullable(), reason: z.string() }).nullable(),
});
export type AuditChainVerification = z.infer<typeof AuditChainVerificationSchema>;

const RetentionDays = wholeNumber(1, 3650);
export const AuditLogsRetentionBodySchema = z.object({ auditLogsRetentionDays: RetentionDays });

const orgRead = { scope: "org", subject: "audit-logs", action: "read" } as const;
const projectRead = { scope: "project", subject: "audit-logs", action: "read" } as const;
const projectSettings = { scope: "project", subject: "settings", action: "edit" } as const;
const orgSettings = { scope: "org", subject: "settings", action: "edit" } as const;

export const auditLogEndpoints = [
  defineEndpoint({
    id: "auditLogs.listOrg",
    method: "GET",
    path: "/api/v1/organization/audit-logs",
    summary: "List the organisation's audit events, newest first; with projectId, one project's",
    query: AuditLogOrgQuery,
    response: AuditLogListSchema,
    permission: orgRead,
  }),
  defineEndpoint({
    id: "auditLogs.listProject",
    method: "GET",
    path: "/api/v1/workspace/{workspaceId}/audit-logs",
    summary: "List a project's audit events, newest first",
    params: z.object({ workspaceId: z.string() }),
    query: AuditLogProjectQuery,
    response: AuditLogListSchema,
    permission: projectRead,
  }),
  defineEndpoint({
    id: "auditLogs.verify",
    method: "GET",
    path: "/api/v1/organization/audit-logs/verify",
    summary: "Walk the organisation's audit chain and say whether it holds, or where it first breaks (Keyhold's)",
    response: z.object({ verification: AuditChainVerificationSchema }),
    permission: orgSettings,
  }),
  defineEndpoint({
    id: "projects.updateAuditLogsRetention",
    method: "PUT",
    path: "/api/v1/projects/{projectId}/audit-logs-retention",
    summary: "Set how many days a project's audit events are kept",
    params: z.object({ projectId: z.string() }),
    body: AuditLogsRetentionBodySchema,
    response: z.object({ message: z.string(), project: ProjectRecordSchema }),
    permission: projectSettings,
  }),
  defineEndpoint({
    id: "projects.updateAuditLogsRetentionLegacy",
    method: "PUT",
    path: "/api/v1/workspace/{workspaceSlug}/audit-logs-retention",
    summary: "Set how many days a project's audit events are kept (the October 2024 path, by slug)",
    params: z.object({ workspaceSlug: z.string() }),
    body: AuditLogsRetentionBodySchema,
    response: z.object({ message: z.string(), workspace: ProjectRecordSchema }),
    permission: projectSettings,
  }),
  defineEndpoint({
    id: "organizations.getAuditLogsRetention",
    method: "GET",
    path: "/api/v1/organization/audit-logs-retention",
    summary: "How many days the organisation keeps audit events of projects without their own setting (Keyhold's)",
    response: z.object({ auditLogsRetentionDays: z.number().int() }),
    permission: orgRead,
  }),
  defineEndpoint({
    id: "organizations.updateAuditLogsRetention",
    method: "PUT",
    path: "/api/v1/organization/audit-logs-retention",
    summary: "Set the organisation's default audit retention in days (Keyhold's)",
    body: AuditLogsRetentionBodySchema,
    response: z.object({ auditLogsRetentionDays: z.number().int() }),
    permission: orgSettings,
  }),
] as const;

// ---- streams ----

export const AUDIT_LOG_STREAM_PROVIDERS = [
  { name: "Azure", provider: "azure" },
  { name: "Cribl", provider: "cribl" },
  { name: "Custom", provider: "custom" },
  { name: "Datadog", provider: "datadog" },
  { name: "Splunk", provider: "splunk" },
  { name: "Sumo Logic", provider: "sumo-logic" },
] as const;

const HeaderValue = z
  .string()
  .min(1)
  .refine((v) => !/[\r\n]/.test(v), "Header values cannot contain newlines or carriage returns");
export const StreamHeaderSchema = z.object({
  key: z
    .string()
    .min(1)
    .refine((v) => !/[\r\n]/.test(v), "Header keys cannot contain newlines or carriage returns"),
  value: HeaderValue,
});
export type StreamHeader = z.infer<typeof StreamHeaderSchema>;

/** The mask a mid-2026 server answers for every stored header value; sent back, it keeps the value. */
export const MASKED_HEADER_VALUE = "******";

export const AuditLogStreamSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  streamMode: z.enum(["batch", "single"]),
  filters: z.record(z.string(), z.unknown()).nullable(),
  provider: z.string(),
  credentials: z.object({ url: z.string(), headers: z.array(z.object({ key: z.string(), value: z.string() })) }),
});
export type AuditLogStream = z.infer<typeof AuditLogStreamSchema>;

export const StreamCredentialsSchema = z.object({
  url: z.url(),
  headers: z.array(StreamHeaderSchema).default([]),
});

const ProviderParams = z.object({ provider: z.string() });
const ProviderStreamParams = z.object({ provider: z.string(), streamId: z.string() });
const StreamParams = z.object({ streamId: z.string() });

/** The October 2024 record: no provider, no mode; `get` adds the headers. */
export const LegacyAuditLogStreamSchema = z.object({
  id: z.string(),
  url: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  headers: z.array(z.object({ key: z.string(), value: z.string() })).optional(),
});

/** Delivery state of one stream (Keyhold's). */
export const AuditLogStreamStatusSchema = z.object({
  id: z.string(),
  provider: z.string(),
  url: z.string(),
  streamMode: z.enum(["batch", "single"]),
  /** Events of the organisation not yet accepted by the receiver. */
  backlog: z.number().int(),
  lastDeliveredSeq: z.number().int(),
  lastSuccessAt: Timestamp.nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: Timestamp.nullable(),
  /** Failed attempts since the last success. */
  failures: z.number().int(),
  nextAttemptAt: Timestamp.nullable(),
});
export type AuditLogStreamStatus = z.infer<typeof AuditLogStreamStatusSchema>;

const orgAdmin = { scope: "org", subject: "settings", action: "edit" } as const;

export const auditLogStreamEndpoints = [
  defineEndpoint({
    id: "auditLogStreams.options",
    method: "GET",
    path: "/api/v1/audit-log-streams/options",
    summary: "The stream providers",
    response: z.object({ providerOptions: z.array(z.object({ name: z.string(), provider: z.string() })) }),
    permission: orgAdmin,
  }),
  defineEndpoint({
    id: "auditLogStreams.list",
    method: "GET",
    path: "/api/v1/audit-log-streams",
    summary: "List the organisation's audit log streams",
    response: z.object({ auditLogStreams: z.array(AuditLogStreamSchema) }),
    permission: orgAdmin,
  }),
  defineEndpoint({
    id: "auditLogStreams.status",
    method: "GET",
    path: "/api/v1/audit-log-streams/status",
    summary: "Delivery state of every stream: last success, last error, backlog (Keyhold's)",
    response: z.object({ streams: z.array(AuditLogStreamStatusSchema) }),
    permission: orgAdmin,
  }),
  defineEndpoint({
    id: "auditLogStreams.create",
    method: "POST",
    path: "/api/v1/audit-log-streams/{provider}",
    summary: "Create a stream; the URL is sent a ping first",
    params: ProviderParams,
    body: z.object({
      credentials: StreamCredentialsSchema,
      filters: z.record(z.string(), z.unknown()).nullable().optional(),
    }),
    response: z.object({ auditLogStream: AuditLogStreamSchema }),
    permission: orgAdmin,
  }),
  defineEndpoint({
    id: "auditLogStreams.get",
    method: "GET",
    path: "/api/v1/audit-log-streams/{provider}/{streamId}",
    summary: "Get a stream (header values masked)",
    params: ProviderStreamParams,
    response: z.object({ auditLogStream: AuditLogStreamSchema }),
    permission: orgAdmin,
  }),
  defineEndpoint({
    id: "auditLogStreams.update",
    method: "PATCH",
    path: "/api/v1/audit-log-streams/{provider}/{streamId}",
    summary: "Update a stream; a masked header value keeps the stored one; the URL is sent a ping first",
    params: ProviderStreamParams,
    body: z.object({
      credentials: z
        .object({
          url: z.url(),
          headers: z
            .array(
              z.object({
                key: StreamHeaderSchema.shape.key,
                value: HeaderValue,
              }),
            )
            .default([]),
        })
        .optional(),
      filters: z.record(z.string(), z.unknown()).nullable().optional(),
      streamMode: z.enum(["batch", "single"]).optional(),
    }),
    response: z.object({ auditLogStream: AuditLogStreamSchema }),
    permission: orgAdmin,
  }),
  defineEndpoint({
    id: "auditLogStreams.delete",
    method: "DELETE",
    path: "/api/v1/audit-log-streams/{provider}/{streamId}",
    summary: "Delete a stream",
    params: ProviderStreamParams,
    response: z.object({ auditLogStream: AuditLogStreamSchema }),
    permission: orgAdmin,
  }),
  defineEndpoint({
    id: "auditLogStreams.test",
    method: "POST",
    path: "/api/v1/audit-log-streams/{provider}/{streamId}/test",
    summary: "Send the stream one test event now and answer what the receiver said (Keyhold's)",
    params: ProviderStreamParams,
    response: z.object({
      delivered: z.boolean(),
      status: z.number().int().nullable(),
      error: z.string().nullable(),
    }),
    permission: orgAdmin,
  }),
  defineEndpoint({
    id: "auditLogStreams.createLegacy",
    method: "POST",
    path: "/api/v1/audit-log-streams",
    summary: "Create a stream (the October 2024 route: one POST per event)",
    body: z.object({ url: z.url(), headers: z.array(StreamHeaderSchema).optional() }),
    response: z.object({ auditLogStream: LegacyAuditLogStreamSchema }),
    permission: orgAdmin,
  }),
  defineEndpoint({
    id: "auditLogStreams.getLegacy",
    method: "GET",
    path: "/api/v1/audit-log-streams/{streamId}",
    summary: "Get a stream with its headers (the October 2024 route)",
    params: StreamParams,
    response: z.object({ auditLogStream: LegacyAuditLogStreamSchema }),
    permission: orgAdmin,
  }),
  defineEndpoint({
    id: "auditLogStreams.updateLegacy",
    method: "PATCH",
    path: "/api/v1/audit-log-streams/{streamId}",
    summary: "Update a stream (the October 2024 route)",
    params: StreamParams,
    body: z.object({ url: z.url().optional(), headers: z.array(StreamHeaderSchema).optional() }),
    response: z.object({ auditLogStream: LegacyAuditLogStreamSchema }),
    permission: orgAdmin,
  }),
  defineEndpoint({
    id: "auditLogStreams.deleteLegacy",
    method: "DELETE",
    path: "/api/v1/audit-log-streams/{streamId}",
    summary: "Delete a stream (the October 2024 route)",
    params: StreamParams,
    response: z.object({ auditLogStream: LegacyAuditLogStreamSchema }),
    permission: orgAdmin,
  }),
] as const;
