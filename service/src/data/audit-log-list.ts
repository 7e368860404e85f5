import { type Kysely, type Selectable, sql } from "kysely";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import type { AuditEventTable } from "../db/schema-audit.ts";

export type AuditEventRow = Selectable<AuditEventTable>;

/** What a list of an organisation's events may be narrowed by; every field but the window is optional. */
export interface AuditEventFilter {
  orgId: string;
  projectId?: string;
  environment?: string;
  secretPath?: string;
  secretKey?: string;
  actorType?: string;
  actorId?: string;
  /** Events of these types only; an empty list matches nothing. */
  eventTypes?: readonly string[];
  userAgentType?: string;
  /** Top-level metadata keys and the text their values must read as. */
  metadata?: Readonly<Record<string, string>>;
  /** ISO 8601 instants, both inclusive. */
  start: string;
  end: string;
  offset: number;
  limit: number;
}

/** Keys a SQLite JSON path can name as one quoted label. */
const quotableKey = /^[^"\\]*$/;

/**
 * One page of an organisation's events, newest first (ties in time by their place in the chain),
 * tombstones left out. Each filter is a plain column comparison that the indexes of migrations
 * 0009 and 0010 serve together with the time window, except the metadata pairs, which are
 * checked on the rows the other filters leave.
 */
export async function listAuditEvents(
  db: Kysely<Database>,
  dialect: Dialect,
  filter: AuditEventFilter,
): Promise<AuditEventRow[]> {
  return (await auditEventListQuery(db, dialect, filter)?.execute()) ?? [];
}

/**
 * SQLite plans without statistics (nothing runs ANALYZE) and then prefers the index that reads
 * the organisation's events in time order, however few of them match: a project's secret key
 * over 90 days scans the whole window. The filter says which index picks the fewest events, so
 * the query names it. PostgreSQL's planner chooses well from the statistics it keeps.
 */
function sqliteTable(filter: AuditEventFilter): "audit_events" {
  const index =
    filter.projectId !== undefined && filter.secretKey !== undefined
      ? "audit_events_project_key_created_idx"
      : filter.actorId !== undefined
        ? "audit_events_org_actor_created_idx"
        : filter.eventTypes?.length === 1
          ? "audit_events_org_type_created_idx"
          : filter.projectId !== undefined
            ? "audit_events_project_created_idx"
            : "audit_events_org_created_idx";
  // The FROM item is the same table, with a clause Kysely has no builder for.
  return sql`audit_events indexed by ${sql.id(index)}` as unknown as "audit_events";
}

/** The query of `listAuditEvents`, or null when the filter can match nothing. */
export function auditEventListQuery(db: Kysely<Database>, dialect: Dialect, filter: AuditEventFilter) {
  if (filter.eventTypes?.length === 0) return null;
  const metadata = Object.entries(filter.metadata ?? {});
  if (dialect === "sqlite" && metadata.some(([key]) => !quotableKey.test(key))) return null;

  let query = db
    .selectFrom(dialect === "sqlite" ? sqliteTable(filter) : "audit_events")
    .selectAll()
    .where("org_id", "=", filter.orgId)
    .where("pruned", "=", 0)
    .where("created_at", ">=", filter.start)
    .where("created_at", "<=", filter.end);
  const equal = {
    project_id: filter.projectId,
    environment: filter.environment,
    secret_path: filter.secretPath,
    secret_key: filter.secretKey,
    actor_type: filter.actorType,
    actor_id: filter.actorId,
    user_agent_type: filter.userAgentType,
  } as const;
  for (const [column, value] of Object.entries(equal) as [keyof typeof equal, string | undefined][]) {
    if (value !== undefined) query = query.where(column, "=", value);
  }
  if (filter.eventTypes) {
    const [only] = filter.eventTypes;
    query =
      filter.eventTypes.length === 1 && only !== undefined
        ? query.where("event_type", "=", only)
        : query.where("event_type", "in", [...filter.eventTypes]);
  }
  for (const [key, value] of metadata) {
    // A value read as text, the way PostgreSQL's ->> reads it: a string as itself, a number or a
    // boolean as its JSON text, a JSON null as no value. SQLite's -> gives the JSON text.
    const path = `$."${key}"`;
    query =
      dialect === "postgres"
        ? query.where(sql<boolean>`(event_metadata::jsonb ->> ${key}::text) = ${value}`)
        : query.where(
            sql<boolean>`(case json_type(event_metadata, ${path}) when 'text' then json_extract(event_metadata, ${path}) when 'null' then null else event_metadata -> ${path} end) = ${value}`,
          );
  }
  return query.orderBy("created_at", "desc").orderBy("org_seq", "desc").limit(filter.limit).offset(filter.offset);
}
