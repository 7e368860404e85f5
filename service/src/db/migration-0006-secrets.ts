import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "./database.ts";

/**
 * Folders, tags, secrets with their versions and tag links, and each project's wrapped data key.
 */
export function secretsMigration(dialect: Dialect, ts: "timestamptz" | "text"): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // Ciphertexts are bytes: bytea on PostgreSQL, blob on SQLite.
      const bytes = dialect === "postgres" ? "bytea" : "blob";

      // Each project's 256-bit data key, sealed with a key derived from the root key.
      await db.schema
        .createTable("project_data_keys")
        .addColumn("project_id", "text", (c) => c.primaryKey().references("projects.id").onDelete("cascade"))
        .addColumn("wrapped_key", "text", (c) => c.notNull())
        .addColumn("created_at", ts, (c) => c.notNull())
        .execute();

      // Folders form a tree per environment; the root ("/", named "root") has no parent and is
      // created when first needed, so environments made before and after this migration get one.
      await db.schema
        .createTable("secret_folders")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("env_id", "text", (c) => c.notNull().references("project_environments.id").onDelete("cascade"))
        .addColumn("parent_id", "text", (c) => c.references("secret_folders.id").onDelete("cascade"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("description", "text")
        .addColumn("is_reserved", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("last_secret_modified", ts)
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .addUniqueConstraint("secret_folders_parent_name_unique", ["parent_id", "name"])
        .execute();
      await db.schema
        .createIndex("secret_folders_env_root_unique")
        .on("secret_folders")
        .column("env_id")
        .unique()
        .where(sql.ref("parent_id"), "is", null)
        .execute();
      await db.schema.createIndex("secret_folders_env_idx").on("secret_folders").column("env_id").execute();

      await db.schema
        .createTable("secret_tags")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("slug", "text", (c) => c.notNull())
        .addColumn("color", "text")
        .addColumn("created_by", "text")
        .addColumn("created_by_actor_type", "text", (c) => c.notNull())
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .addUniqueConstraint("secret_tags_project_slug_unique", ["project_id", "slug"])
        .execute();

      // Values and comments are AES-256-GCM ciphertexts under the project's data key, bound to
      // the row id and the column. Personal overrides carry the user they belong to.
      await db.schema
        .createTable("secrets")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("env_id", "text", (c) => c.notNull().references("project_environments.id").onDelete("cascade"))
        .addColumn("folder_id", "text", (c) => c.notNull().references("secret_folders.id").onDelete("cascade"))
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("user_id", "text")
        .addColumn("key", "text", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("value_ciphertext", bytes, (c) => c.notNull())
        .addColumn("comment_ciphertext", bytes, (c) => c.notNull())
        .addColumn("skip_multiline_encoding", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("reminder_note", "text")
        .addColumn("reminder_repeat_days", "integer")
        // JSON arrays: recipient ids, and metadata as [{key, value}].
        .addColumn("reminder_recipients", "text")
        .addColumn("metadata", "text")
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("secrets_folder_key_shared_unique")
        .on("secrets")
        .columns(["folder_id", "key"])
        .unique()
        .where(sql.ref("type"), "=", "shared")
        .execute();
      await db.schema
        .createIndex("secrets_folder_key_personal_unique")
        .on("secrets")
        .columns(["folder_id", "key", "user_id"])
        .unique()
        .where(sql.ref("type"), "=", "personal")
        .execute();
      await db.schema.createIndex("secrets_env_idx").on("secrets").columns(["env_id", "folder_id"]).execute();

      // Every change of a secret writes one row here; (secret_id, version) is unique.
      await db.schema
        .createTable("secret_versions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("secret_id", "text", (c) => c.notNull().references("secrets.id").onDelete("cascade"))
        .addColumn("project_id", "text", (c) => c.notNull())
        .addColumn("env_id", "text", (c) => c.notNull())
        .addColumn("folder_id", "text", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("user_id", "text")
        .addColumn("key", "text", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("value_ciphertext", bytes, (c) => c.notNull())
        .addColumn("comment_ciphertext", bytes, (c) => c.notNull())
        .addColumn("skip_multiline_encoding", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("reminder_note", "text")
        .addColumn("reminder_repeat_days", "integer")
        .addColumn("metadata", "text")
        .addColumn("actor_type", "text")
        .addColumn("actor_id", "text")
        .addColumn("actor_name", "text")
        .addColumn("actor_membership_id", "text")
        .addColumn("created_at", ts, (c) => c.notNull())
        .addUniqueConstraint("secret_versions_secret_version_unique", ["secret_id", "version"])
        .execute();

      await db.schema
        .createTable("secret_tag_links")
        .addColumn("secret_id", "text", (c) => c.notNull().references("secrets.id").onDelete("cascade"))
        .addColumn("tag_id", "text", (c) => c.notNull().references("secret_tags.id").onDelete("cascade"))
        .addPrimaryKeyConstraint("secret_tag_links_pk", ["secret_id", "tag_id"])
        .execute();
      await db.schema.createIndex("secret_tag_links_tag_idx").on("secret_tag_links").column("tag_id").execute();
    },
  };
}
