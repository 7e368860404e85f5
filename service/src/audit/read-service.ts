import type { AuditLog, Endpoints } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { type AuditEventFilter, type AuditEventRow, listAuditEvents } from "../data/audit-log-list.ts";
import { retentionDays } from "../data/audit-retention.ts";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import type { Actor } from "../domain/access-tokens.ts";
import { BadRequestError } from "../domain/errors.ts";
import { assertOrgPermission } from "../domain/permissions.ts";
import { assertCan, type ProjectPermissions } from "../domain/project-permissions.ts";
import { toIso } from "../lib/time.ts";
import { intersectEventTypes, readableEventTypes } from "./readable-event-types.ts";
import { expiresAt } from "./retention.ts";

type OrgQuery = z.output<Endpoints["auditLogs.listOrg"]["query"]>;
type ProjectQuery = z.output<Endpoints["auditLogs.listProject"]["query"]>;

/** Actor types whose events name the actor by an id that `actor` can filter on. */
const ACTOR_TYPES_WITH_ID = new Set(["user", "identity", "service", "kmipClient", "gateway", "relay"]);

const DAY_MS = 86_400_000;

export interface AuditLogReaderDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  projectPermissions: ProjectPermissions;
  /** Milliseconds since the epoch; tests pass their own clock. */
  now?: () => number;
}

/** Stored JSON text as the object it holds (an empty object for a cleared column). */
function parseObject(text: string | null): Record<string, unknown> {
  return text === null ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/**
 * Reading the audit log: Infisical's two list routes with their filters and permissions. An
 * organisation-wide list needs the org permission `audit-logs:read`; a project's list (the
 * project route, or the org route with `projectId`) needs the project permission, and shows only
 * the event types the caller's project rules allow.
 */
export function createAuditLogReader({ db, dialect, projectPermissions, now = () => Date.now() }: AuditLogReaderDeps) {
  /** The filter of a query, with Infisical's defaults: from 00:00 UTC today until now. */
  function filterOf(orgId: string, query: OrgQuery | ProjectQuery): AuditEventFilter {
    if (query.actor !== undefined && query.actorType !== undefined && !ACTOR_TYPES_WITH_ID.has(query.actorType)) {
      throw new BadRequestError(`Actor type '${query.actorType}' does not support filtering by actor ID`);
    }
    const at = now();
    const midnight = at - (at % DAY_MS);
    return {
      orgId,
      environment: query.environment,
      secretPath: query.secretPath,
      secretKey: query.secretKey,
      actorType: query.actorType,
      actorId: query.actor,
      userAgentType: query.userAgentType,
      metadata: query.eventMetadata,
      start: new Date(query.startDate ?? midnight).toISOString(),
      end: new Date(query.endDate ?? at).toISOString(),
      offset: query.offset,
      limit: query.limit,
    };
  }

  /** Rows to the wire, `expiresAt` from the retention in force now (the project's, else the org's). */
  async function toWire(orgId: string, rows: AuditEventRow[]): Promise<AuditLog[]> {
    const projectIds = [...new Set(rows.flatMap((row) => (row.project_id === null ? [] : [row.project_id])))];
    const retention = await retentionDays(db, orgId, projectIds);
    return rows.map((row) => {
      const createdAt = toIso(row.created_at);
      const days = (row.project_id !== null && retention.byProject.get(row.project_id)) || retention.orgDefault;
      return {
        id: row.id,
        ipAddress: row.ip_address,
        userAgent: row.user_agent,
        userAgentType: row.user_agent_type,
        expiresAt: expiresAt(createdAt, days),
        createdAt,
        updatedAt: createdAt,
        orgId: row.org_id,
        projectId: row.project_id,
        projectName: row.project_name,
        event: { type: row.event_type ?? "", metadata: parseObject(row.event_metadata) },
        actor: { type: row.actor_type ?? "", metadata: parseObject(row.actor_metadata) },
        requestId: row.request_id,
      };
    });
  }

  /** One project's events the actor may read: project `audit-logs:read`, narrowed by its eventType rules. */
  async function listOfProject(
    actor: Actor,
    projectId: string,
    query: OrgQuery | ProjectQuery,
    wanted: readonly string[] | undefined,
  ): Promise<AuditLog[]> {
    const filter = filterOf(actor.orgId, query);
    const { ability } = await projectPermissions.accessFor(actor, projectId);
    assertCan(ability, "read", "audit-logs");
    const eventTypes = intersectEventTypes(wanted, readableEventTypes(ability));
    const rows = await listAuditEvents(db, dialect, { ...filter, projectId, eventTypes });
    return toWire(actor.orgId, rows);
  }

  return {
    async listOrg(actor: Actor, query: OrgQuery): Promise<AuditLog[]> {
      if (query.projectId !== undefined) return listOfProject(actor, query.projectId, query, query.eventType);
      const filter = filterOf(actor.orgId, query);
      assertOrgPermission(actor.ability, "read", "audit-logs");
      const rows = await listAuditEvents(db, dialect, { ...filter, eventTypes: query.eventType });
      return toWire(actor.orgId, rows);
    },

    async listProject(actor: Actor, projectId: string, query: ProjectQuery): Promise<AuditLog[]> {
      return listOfProject(actor, projectId, query, query.eventType === undefined ? undefined : [query.eventType]);
    },
  };
}

export type AuditLogReader = ReturnType<typeof createAuditLogReader>;
