import type { Kysely, Migration } from "kysely";

/**
 * Secret imports: a folder (`folder_id`) reads the secrets of another environment's folder
 * (`import_env_id` + `import_path`, kept as a path so an import may name a folder that comes later),
 * in 1-based `position` order without gaps. Replication flags are stored; nothing is replicated.
 *
 * Integration auths (provider credentials, sealed with a key derived from the root key and bound
 * to their row) and integrations (which environment and path go to which provider target).
 * Integrations go with their environment, their auth and their project.
 */
export function importsAndIntegrationsMigration(ts: "timestamptz" | "text"): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("secret_imports")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("folder_id", "text", (c) => c.notNull().references("secret_folders.id").onDelete("cascade"))
        .addColumn("import_env_id", "text", (c) =>
          c.notNull().references("project_environments.id").onDelete("cascade"),
        )
        .addColumn("import_path", "text", (c) => c.notNull())
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("is_replication", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("is_replication_success", "integer")
        .addColumn("replication_status", "text")
        .addColumn("last_replicated", ts)
        .addColumn("is_reserved", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("secret_imports_folder_position_idx")
        .on("secret_imports")
        .columns(["folder_id", "position"])
        .execute();
      await db.schema
        .createIndex("secret_imports_source_idx")
        .on("secret_imports")
        .columns(["import_env_id", "import_path"])
        .execute();

      await db.schema
        .createTable("integration_auths")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("integration", "text", (c) => c.notNull())
        .addColumn("team_id", "text")
        .addColumn("url", "text")
        .addColumn("namespace", "text")
        .addColumn("account_id", "text")
        // JSON object, or null.
        .addColumn("metadata", "text")
        // The credentials (access token, access id, refresh token, role ARN) as one sealed JSON object.
        .addColumn("sealed_credentials", "text")
        .addColumn("access_expires_at", ts)
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("integration_auths_project_idx")
        .on("integration_auths")
        .column("project_id")
        .execute();

      await db.schema
        .createTable("integrations")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("integration_auth_id", "text", (c) =>
          c.notNull().references("integration_auths.id").onDelete("cascade"),
        )
        .addColumn("env_id", "text", (c) => c.notNull().references("project_environments.id").onDelete("cascade"))
        .addColumn("secret_path", "text", (c) => c.notNull())
        .addColumn("integration", "text", (c) => c.notNull())
        .addColumn("is_active", "integer", (c) => c.notNull())
        .addColumn("url", "text")
        .addColumn("app", "text")
        .addColumn("app_id", "text")
        .addColumn("target_environment", "text")
        .addColumn("target_environment_id", "text")
        .addColumn("target_service", "text")
        .addColumn("target_service_id", "text")
        .addColumn("owner", "text")
        .addColumn("path", "text")
        .addColumn("region", "text")
        .addColumn("scope", "text")
        // JSON object.
        .addColumn("metadata", "text", (c) => c.notNull())
        .addColumn("last_used", ts)
        .addColumn("is_synced", "integer")
        .addColumn("sync_message", "text")
        .addColumn("last_sync_job_id", "text")
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("integrations_project_idx").on("integrations").column("project_id").execute();
      await db.schema.createIndex("integrations_auth_idx").on("integrations").column("integration_auth_id").execute();
      await db.schema.createIndex("integrations_env_idx").on("integrations").column("env_id").execute();
    },
  };
}
