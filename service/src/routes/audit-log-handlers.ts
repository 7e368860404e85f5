import type { AuditLogReader } from "../audit/read-service.ts";
import type { RetentionSettings } from "../audit/retention-settings.ts";
import { type HandlerMap, shapedAnswer } from "./handler-types.ts";

const PROJECT_RETENTION_UPDATED = "Successfully updated project's audit logs retention period";

/** Reading the audit log and setting how long it is kept. */
export function auditLogHandlers(
  reader: AuditLogReader,
  retention: RetentionSettings,
): Pick<
  HandlerMap,
  | "auditLogs.listOrg"
  | "auditLogs.listProject"
  | "projects.updateAuditLogsRetention"
  | "projects.updateAuditLogsRetentionLegacy"
  | "organizations.getAuditLogsRetention"
  | "organizations.updateAuditLogsRetention"
> {
  return {
    // Pages of up to 1,000 events are built field by field to the response schema (the shape
    // tests check that parsing them would change nothing), so they are sent as built.
    "auditLogs.listOrg": async ({ actor, query }) => shapedAnswer({ auditLogs: await reader.listOrg(actor, query) }),
    "auditLogs.listProject": async ({ actor, params, query }) =>
      shapedAnswer({ auditLogs: await reader.listProject(actor, params.workspaceId, query) }),
    "projects.updateAuditLogsRetention": async ({ actor, params, body }) => ({
      message: PROJECT_RETENTION_UPDATED,
      project: await retention.updateProject(actor, params.projectId, body.auditLogsRetentionDays),
    }),
    "projects.updateAuditLogsRetentionLegacy": async ({ actor, params, body }) => ({
      message: PROJECT_RETENTION_UPDATED,
      workspace: await retention.updateProjectBySlug(actor, params.workspaceSlug, body.auditLogsRetentionDays),
    }),
    "organizations.getAuditLogsRetention": async ({ actor }) => ({
      auditLogsRetentionDays: await retention.getOrgDefault(actor),
    }),
    "organizations.updateAuditLogsRetention": async ({ actor, body }) => ({
      auditLogsRetentionDays: await retention.updateOrgDefault(actor, body.auditLogsRetentionDays),
    }),
  };
}
