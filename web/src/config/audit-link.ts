import { paths } from "./paths";

/** The audit log page's URL params (read by features/audit-log/audit-filter.ts). */
export const AUDIT_PARAMS = {
  range: "range",
  from: "from",
  to: "to",
  actor: "actor",
  actorType: "actorType",
  eventType: "eventType",
  projectId: "projectId",
  environment: "environment",
  secretPath: "secretPath",
  secretKey: "secretKey",
  userAgentType: "userAgentType",
  eventMetadata: "eventMetadata",
  event: "event",
} as const;

/** What a "View activity" link filters the audit log by. */
export interface ActivityOf {
  projectId?: string;
  environment?: string;
  secretPath?: string;
  secretKey?: string;
  /** An identity's id: the events it caused. */
  actor?: string;
  eventTypes?: readonly string[];
  /** Metadata equalities: `{ identityId }` for the events about an identity. */
  eventMetadata?: Readonly<Record<string, string>>;
}

/** The audit log filtered to one resource's events (over the last 30 days). */
export function activityHref(of: ActivityOf): string {
  const search = new URLSearchParams({ [AUDIT_PARAMS.range]: "30d" });
  const put = (name: string, value: string | undefined) => {
    if (value) search.set(name, value);
  };
  put(AUDIT_PARAMS.actor, of.actor);
  put(AUDIT_PARAMS.eventType, of.eventTypes?.join(","));
  put(AUDIT_PARAMS.projectId, of.projectId);
  put(AUDIT_PARAMS.environment, of.environment);
  put(AUDIT_PARAMS.secretPath, of.secretPath);
  put(AUDIT_PARAMS.secretKey, of.secretKey);
  put(
    AUDIT_PARAMS.eventMetadata,
    Object.entries(of.eventMetadata ?? {})
      .map(([key, value]) => `${key}=${value}`)
      .join(","),
  );
  return paths.auditLog.href(`?${search}`);
}
