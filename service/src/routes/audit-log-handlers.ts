import type { AuditLogReader } from "../audit/read-service.ts";
import type { RetentionSettings } from "../audit/retention-settings.ts";
import type { HandlerMap } from "./handler-types.ts";

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
    "auditLogs.listOrg": async ({ actor, query }) => ({ auditLogs: await reader.listOrg(actor, query) }),
    "auditLogs.listProject": async ({ actor, params, query }) => ({
      auditLogs: await reader.listProject(actor, params.workspaceId, query),
    }),
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
