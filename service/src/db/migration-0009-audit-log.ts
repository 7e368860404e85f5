import type { Kysely, Migration } from "kysely";

/**
 * The audit log.
 *
 * `audit_events`: one row per event, in a hash chain per organisation (`org_seq` is the event's
 * place in it). `project_id` is not a foreign key: an event outlives what it names. The
 * environment, folder path and secret key are copied out of the metadata so that the filters use
 * indexes. An event past its retention becomes a tombstone (`pruned` 1, content cleared, its
 * hashes kept) so the chain still verifies; a prefix of tombstones is then replaced by the signed
 * checkpoint in `audit_chain_heads`.
 *
 * `audit_chain_heads`: the last link of each organisation's chain, read FOR UPDATE by the writer
 * of the next event, and the checkpoint left by pruning.
 *
 * `audit_log_streams`: where events are sent, with the headers sealed, and each stream's delivery
 * state (the last event delivered, the last error, the lease of the instance delivering it).
 *
 * Also: the organisation's default retention, and the claims an OIDC login mapped onto a token.
 */
export function auditLogMigration(ts: "timestamptz" | "text"): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("audit_events")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("org_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("org_seq", "integer", (c) => c.notNull())
        .addColumn("project_id", "text")
        .addColumn("project_name", "text")
        .addColumn("event_type", "text")
        .addColumn("event_metadata", "text")
        .addColumn("actor_type", "text")
        .addColumn("actor_id", "text")
        .addColumn("actor_metadata", "text")
        .addColumn("ip_address", "text")
        .addColumn("user_agent", "text")
        .addColumn("user_agent_type", "text")
        .addColumn("request_id", "text")
        .addColumn("environment", "text")
        .addColumn("secret_path", "text")
        .addColumn("secret_key", "text")
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("content_hash", "text", (c) => c.notNull())
        .addColumn("hash", "text", (c) => c.notNull())
        .addColumn("pruned", "integer", (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint("audit_events_org_seq_unique", ["org_id", "org_seq"])
        .execute();
      await db.schema
        .createIndex("audit_events_org_created_idx")
        .on("audit_events")
        .columns(["org_id", "created_at"])
        .execute();
      await db.schema
        .createIndex("audit_events_project_created_idx")
        .on("audit_events")
        .columns(["project_id", "created_at"])
        .execute();

      await db.schema
        .createTable("audit_chain_heads")
        .addColumn("org_id", "text", (c) => c.primaryKey().references("organizations.id").onDelete("cascade"))
        .addColumn("last_seq", "integer", (c) => c.notNull())
        .addColumn("last_hash", "text", (c) => c.notNull())
        .addColumn("checkpoint_seq", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("checkpoint_hash", "text")
        .addColumn("checkpoint_signature", "text")
        .addColumn("updated_at", ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("audit_log_streams")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("org_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("provider", "text", (c) => c.notNull())
        .addColumn("api", "text", (c) => c.notNull())
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("sealed_headers", "text", (c) => c.notNull())
        .addColumn("filters", "text")
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .addColumn("cursor_seq", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("last_success_at", ts)
        .addColumn("last_error", "text")
        .addColumn("last_error_at", ts)
        .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", ts)
        .addColumn("lease_owner", "text")
        .addColumn("lease_until", ts)
        .execute();
      await db.schema.createIndex("audit_log_streams_org_idx").on("audit_log_streams").column("org_id").execute();

      await db.schema
        .alterTable("organizations")
        .addColumn("audit_logs_retention_days", "integer", (c) => c.notNull().defaultTo(90))
        .execute();
      await db.schema.alterTable("identity_access_tokens").addColumn("claim_metadata", "text").execute();
    },
  };
}
