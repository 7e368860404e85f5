import type { Kysely, Migration } from "kysely";

/**
 * Indexes for the audit log's filters. Each list is one organisation's events in a time window,
 * newest first; 0009 indexes the window by organisation and by project. These add the filters
 * that pick few events out of many, each followed by the time so that an index range read
 * backwards yields a page in order: a project's secret key (the "View activity" of a secret),
 * an actor, an event type. The other filters (environment, folder, actor type, user agent,
 * metadata) keep most of a project's or an organisation's events and are checked on the rows
 * these ranges give.
 */
export function auditLogIndexesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex("audit_events_project_key_created_idx")
        .on("audit_events")
        .columns(["project_id", "secret_key", "created_at"])
        .execute();
      await db.schema
        .createIndex("audit_events_org_actor_created_idx")
        .on("audit_events")
        .columns(["org_id", "actor_id", "created_at"])
        .execute();
      await db.schema
        .createIndex("audit_events_org_type_created_idx")
        .on("audit_events")
        .columns(["org_id", "event_type", "created_at"])
        .execute();
    },
  };
}
