import { type Kysely, type Migration, Migrator, type MigrationProvider, sql } from "kysely";
import type { Dialect } from "./database.ts";
import { secretsMigration } from "./migration-0006-secrets.ts";
import { importsAndIntegrationsMigration } from "./migration-0007-imports-integrations.ts";
import { folderCommitsMigration } from "./migration-0008-folder-commits.ts";
import { auditLogMigration } from "./migration-0009-audit-log.ts";
import { auditLogIndexesMigration } from "./migration-0010-audit-log-indexes.ts";

/**
 * Migrations are written in code and serve both dialects. Column types that differ are
 * chosen here: timestamps are timestamptz on PostgreSQL and ISO 8601 text on SQLite;
 * ids are text everywhere (uuids generated in Node); flags are integers 0/1.
 */
function migrations(dialect: Dialect): Record<string, Migration> {
  const ts = dialect === "postgres" ? "timestamptz" : "text";
  return {
    "0001_identities_and_tokens": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("organizations")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("slug", "text", (c) => c.notNull().unique())
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .execute();

        await db.schema
          .createTable("identities")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("org_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("has_delete_protection", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .execute();

        await db.schema
          .createTable("instance")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("org_id", "text", (c) => c.notNull().references("organizations.id"))
          .addColumn("admin_identity_id", "text", (c) => c.notNull())
          .addColumn("created_at", ts, (c) => c.notNull())
          .execute();

        await db.schema
          .createTable("identity_org_memberships")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("identity_id", "text", (c) => c.notNull().references("identities.id").onDelete("cascade"))
          .addColumn("org_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
          .addColumn("role", "text", (c) => c.notNull())
          .addColumn("role_id", "text")
          .addColumn("last_login_auth_method", "text")
          .addColumn("last_login_time", ts)
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .addUniqueConstraint("identity_org_memberships_identity_org_unique", ["identity_id", "org_id"])
          .execute();
        await db.schema
          .createIndex("identity_org_memberships_org_idx")
          .on("identity_org_memberships")
          .column("org_id")
          .execute();

        await db.schema
          .createTable("identity_metadata")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("identity_id", "text", (c) => c.notNull().references("identities.id").onDelete("cascade"))
          .addColumn("org_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
          .addColumn("key", "text", (c) => c.notNull())
          .addColumn("value", "text", (c) => c.notNull())
          .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("identity_metadata_identity_idx")
          .on("identity_metadata")
          .columns(["identity_id", "org_id"])
          .execute();

        await db.schema
          .createTable("identity_token_auths")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("identity_id", "text", (c) => c.notNull().unique().references("identities.id").onDelete("cascade"))
          .addColumn("access_token_ttl", "integer", (c) => c.notNull())
          .addColumn("access_token_max_ttl", "integer", (c) => c.notNull())
          .addColumn("access_token_num_uses_limit", "integer", (c) => c.notNull())
          .addColumn("access_token_period", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("access_token_trusted_ips", "text", (c) => c.notNull())
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .execute();

        await db.schema
          .createTable("identity_access_tokens")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("identity_id", "text", (c) => c.notNull().references("identities.id").onDelete("cascade"))
          .addColumn("name", "text")
          .addColumn("auth_method", "text", (c) => c.notNull())
          .addColumn("access_token_ttl", "integer", (c) => c.notNull())
          .addColumn("access_token_max_ttl", "integer", (c) => c.notNull())
          .addColumn("access_token_num_uses", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("access_token_num_uses_limit", "integer", (c) => c.notNull())
          .addColumn("access_token_period", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("access_token_last_used_at", ts)
          .addColumn("access_token_last_renewed_at", ts)
          .addColumn("is_access_token_revoked", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("identity_ua_client_secret_id", "text")
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("identity_access_tokens_identity_method_idx")
          .on("identity_access_tokens")
          .columns(["identity_id", "auth_method"])
          .execute();
      },
    },
    "0002_auth_methods_in_one_table": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("identity_auth_methods")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("identity_id", "text", (c) => c.notNull().references("identities.id").onDelete("cascade"))
          .addColumn("method", "text", (c) => c.notNull())
          .addColumn("access_token_ttl", "integer", (c) => c.notNull())
          .addColumn("access_token_max_ttl", "integer", (c) => c.notNull())
          .addColumn("access_token_num_uses_limit", "integer", (c) => c.notNull())
          .addColumn("access_token_period", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("access_token_trusted_ips", "text", (c) => c.notNull())
          .addColumn("settings", "text", (c) => c.notNull().defaultTo("{}"))
          .addColumn("sealed", "text")
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .addUniqueConstraint("identity_auth_methods_identity_method_unique", ["identity_id", "method"])
          .execute();
        await sql`
          INSERT INTO identity_auth_methods (id, identity_id, method, access_token_ttl, access_token_max_ttl,
            access_token_num_uses_limit, access_token_period, access_token_trusted_ips, settings, sealed,
            created_at, updated_at)
          SELECT id, identity_id, 'token-auth', access_token_ttl, access_token_max_ttl, access_token_num_uses_limit,
            access_token_period, access_token_trusted_ips, '{}', NULL, created_at, updated_at
          FROM identity_token_auths`.execute(db);
        await db.schema.dropTable("identity_token_auths").execute();
      },
    },
    "0003_universal_auth_client_secrets": {
      async up(db: Kysely<unknown>) {
        // Only a SHA-256 of each secret is kept: the secret is 32 random bytes, so a slow hash
        // adds nothing, and the hash is unique and indexed, so a login finds its secret directly.
        await db.schema
          .createTable("identity_ua_client_secrets")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("identity_id", "text", (c) => c.notNull().references("identities.id").onDelete("cascade"))
          .addColumn("auth_method_id", "text", (c) =>
            c.notNull().references("identity_auth_methods.id").onDelete("cascade"),
          )
          .addColumn("description", "text", (c) => c.notNull())
          .addColumn("client_secret_prefix", "text", (c) => c.notNull())
          .addColumn("client_secret_hash", "text", (c) => c.notNull().unique())
          .addColumn("client_secret_num_uses", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("client_secret_num_uses_limit", "integer", (c) => c.notNull())
          .addColumn("client_secret_ttl", "integer", (c) => c.notNull())
          .addColumn("is_client_secret_revoked", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("identity_ua_client_secrets_auth_method_idx")
          .on("identity_ua_client_secrets")
          .column("auth_method_id")
          .execute();
      },
    },
    "0004_projects_roles_memberships": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("projects")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("org_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("slug", "text", (c) => c.notNull())
          .addColumn("description", "text")
          .addColumn("type", "text", (c) => c.notNull())
          .addColumn("default_product", "text")
          .addColumn("auto_capitalization", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("version", "integer", (c) => c.notNull())
          .addColumn("upgrade_status", "text")
          .addColumn("pit_version_limit", "integer", (c) => c.notNull())
          .addColumn("kms_certificate_key_id", "text")
          .addColumn("kms_secret_manager_key_id", "text")
          .addColumn("audit_logs_retention_days", "integer")
          .addColumn("has_delete_protection", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("secret_sharing", "integer", (c) => c.notNull().defaultTo(1))
          .addColumn("show_snapshots_legacy", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("secret_detection_ignore_values", "text")
          .addColumn("enforce_encrypted_secret_manager_secret_metadata", "integer")
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .addUniqueConstraint("projects_org_slug_unique", ["org_id", "slug"])
          .execute();

        await db.schema
          .createTable("project_environments")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("slug", "text", (c) => c.notNull())
          .addColumn("position", "integer", (c) => c.notNull())
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .addUniqueConstraint("project_environments_project_slug_unique", ["project_id", "slug"])
          .execute();

        await db.schema
          .createTable("project_roles")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("slug", "text", (c) => c.notNull())
          .addColumn("description", "text")
          // CASL rules packed as JSON (packRules), as Infisical stores them.
          .addColumn("permissions", "text", (c) => c.notNull())
          .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .addUniqueConstraint("project_roles_project_slug_unique", ["project_id", "slug"])
          .execute();

        // Minimal user records, so that users can be invited into projects by email.
        await db.schema
          .createTable("users")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("email", "text", (c) => c.unique())
          .addColumn("username", "text", (c) => c.notNull().unique())
          .addColumn("first_name", "text")
          .addColumn("last_name", "text")
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .execute();

        // One row per membership of a user or an identity in a project; its roles are rows below.
        await db.schema
          .createTable("project_memberships")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
          .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
          .addColumn("identity_id", "text", (c) => c.references("identities.id").onDelete("cascade"))
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .addUniqueConstraint("project_memberships_project_user_unique", ["project_id", "user_id"])
          .addUniqueConstraint("project_memberships_project_identity_unique", ["project_id", "identity_id"])
          .execute();
        await db.schema
          .createIndex("project_memberships_identity_idx")
          .on("project_memberships")
          .column("identity_id")
          .execute();
        await db.schema
          .createIndex("project_memberships_user_idx")
          .on("project_memberships")
          .column("user_id")
          .execute();

        await db.schema
          .createTable("project_membership_roles")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("membership_id", "text", (c) =>
            c.notNull().references("project_memberships.id").onDelete("cascade"),
          )
          // The slug of a predefined role, or "custom" with custom_role_id set.
          .addColumn("role", "text", (c) => c.notNull())
          // No cascade: a custom role in use cannot be deleted (the service refuses first).
          .addColumn("custom_role_id", "text", (c) => c.references("project_roles.id"))
          .addColumn("is_temporary", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("temporary_mode", "text")
          .addColumn("temporary_range", "text")
          .addColumn("temporary_access_start_time", ts)
          .addColumn("temporary_access_end_time", ts)
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("project_membership_roles_membership_idx")
          .on("project_membership_roles")
          .column("membership_id")
          .execute();
        await db.schema
          .createIndex("project_membership_roles_custom_role_idx")
          .on("project_membership_roles")
          .column("custom_role_id")
          .execute();

        await db.schema
          .createTable("identity_project_privileges")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("project_membership_id", "text", (c) =>
            c.notNull().references("project_memberships.id").onDelete("cascade"),
          )
          .addColumn("slug", "text", (c) => c.notNull())
          .addColumn("permissions", "text", (c) => c.notNull())
          .addColumn("is_temporary", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("temporary_mode", "text")
          .addColumn("temporary_range", "text")
          .addColumn("temporary_access_start_time", ts)
          .addColumn("temporary_access_end_time", ts)
          .addColumn("created_at", ts, (c) => c.notNull())
          .addColumn("updated_at", ts, (c) => c.notNull())
          .addUniqueConstraint("identity_project_privileges_membership_slug_unique", ["project_membership_id", "slug"])
          .execute();
      },
    },
    "0005_universal_auth_lockouts": {
      async up(db: Kysely<unknown>) {
        // Failed universal-auth logins per client id, shared by every instance on this database.
        // Times are epoch milliseconds (double precision: exact, and a plain number in both
        // drivers), compared with the service's clock rather than the database's.
        await db.schema
          .createTable("identity_ua_lockouts")
          .addColumn("auth_method_id", "text", (c) =>
            c.notNull().references("identity_auth_methods.id").onDelete("cascade"),
          )
          .addColumn("client_id", "text", (c) => c.notNull())
          .addColumn("identity_id", "text", (c) => c.notNull().references("identities.id").onDelete("cascade"))
          .addColumn("failed_attempts", "integer", (c) => c.notNull())
          .addColumn("locked_until", "double precision")
          .addColumn("expires_at", "double precision", (c) => c.notNull())
          .addPrimaryKeyConstraint("identity_ua_lockouts_pk", ["auth_method_id", "client_id"])
          .execute();
        await db.schema
          .createIndex("identity_ua_lockouts_identity_idx")
          .on("identity_ua_lockouts")
          .column("identity_id")
          .execute();
      },
    },
    "0006_secrets": secretsMigration(dialect, ts),
    "0007_imports_integrations": importsAndIntegrationsMigration(ts),
    "0008_folder_commits": folderCommitsMigration(dialect, ts),
    "0009_audit_log": auditLogMigration(ts),
    "0010_audit_log_indexes": auditLogIndexesMigration(),
  };
}

class CodeMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations(this.dialect);
  }
}

export async function migrateToLatest(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db, provider: new CodeMigrationProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed`, { cause: error });
  }
}

/** The migrations this build knows that the database has not run (for readiness checks). */
export async function pendingMigrations(db: Kysely<unknown>, dialect: Dialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new CodeMigrationProvider(dialect) });
  const known = await migrator.getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
