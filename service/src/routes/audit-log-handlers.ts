import { type HandlerMap, notImplemented } from "./handler-types.ts";

/** Reading the audit log and setting how long it is kept. */
export function auditLogHandlers(): Pick<
  HandlerMap,
  | "auditLogs.listOrg"
  | "auditLogs.listProject"
  | "projects.updateAuditLogsRetention"
  | "projects.updateAuditLogsRetentionLegacy"
  | "organizations.getAuditLogsRetention"
  | "organizations.updateAuditLogsRetention"
> {
  return {
    "auditLogs.listOrg": notImplemented,
    "auditLogs.listProject": notImplemented,
    "projects.updateAuditLogsRetention": notImplemented,
    "projects.updateAuditLogsRetentionLegacy": notImplemented,
    "organizations.getAuditLogsRetention": notImplemented,
    "organizations.updateAuditLogsRetention": notImplemented,
  };
}
