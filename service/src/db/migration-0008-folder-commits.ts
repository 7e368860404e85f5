import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "./database.ts";

/**
 * Point-in-time recovery.
 *
 * `folder_commits`: one row per change to a folder (a batch is one change), holding the folder's
 * whole state after it as JSON: which version of each secret, its tags, its sub-folders and its
 * imports. Values are not in it: they stay in `secret_versions`, encrypted. `folder_id` is not a
 * foreign key so that a folder's history outlives the folder (a rollback of its parent brings it
 * back); the commits go with their environment and project.
 *
 * `secret_versions` no longer goes with its secret: a deleted secret's versions stay, so that a
 * rollback can bring it back; they go with their project and environment instead, and old ones are
 * pruned with the commits that name them. SQLite cannot drop a foreign key, so the table is rebuilt.
 */
export function folderCommitsMigration(dialect: Dialect, ts: "timestamptz" | "text"): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("folder_commits")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("env_id", "text", (c) => c.notNull().references("project_environments.id").onDelete("cascade"))
        .addColumn("folder_id", "text", (c) => c.notNull())
        .addColumn("parent_folder_id", "text")
        .addColumn("seq", "integer", (c) => c.notNull())
        .addColumn("actor_type", "text", (c) => c.notNull())
        .addColumn("actor_id", "text")
        .addColumn("actor_name", "text")
        .addColumn("message", "text")
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("created_at", ts, (c) => c.notNull())
        .addUniqueConstraint("folder_commits_folder_seq_unique", ["folder_id", "seq"])
        .execute();
      await db.schema.createIndex("folder_commits_env_idx").on("folder_commits").column("env_id").execute();

      if (dialect === "postgres") {
        await sql`alter table secret_versions drop constraint if exists secret_versions_secret_id_fkey`.execute(db);
        await sql`alter table secret_versions add constraint secret_versions_project_fk foreign key (project_id) references projects(id) on delete cascade`.execute(
          db,
        );
        await sql`alter table secret_versions add constraint secret_versions_env_fk foreign key (env_id) references project_environments(id) on delete cascade`.execute(
          db,
        );
      } else {
        await db.schema
          .createTable("secret_versions_next")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("secret_id", "text", (c) => c.notNull())
          .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
          .addColumn("env_id", "text", (c) => c.notNull().references("project_environments.id").onDelete("cascade"))
          .addColumn("folder_id", "text", (c) => c.notNull())
          .addColumn("type", "text", (c) => c.notNull())
          .addColumn("user_id", "text")
          .addColumn("key", "text", (c) => c.notNull())
          .addColumn("version", "integer", (c) => c.notNull())
          .addColumn("value_ciphertext", "blob", (c) => c.notNull())
          .addColumn("comment_ciphertext", "blob", (c) => c.notNull())
          .addColumn("skip_multiline_encoding", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("reminder_note", "text")
          .addColumn("reminder_repeat_days", "integer")
          .addColumn("metadata", "text")
          .addColumn("actor_type", "text")
          .addColumn("actor_id", "text")
          .addColumn("actor_name", "text")
          .addColumn("actor_membership_id", "text")
          .addColumn("created_at", ts, (c) => c.notNull())
          .execute();
        await sql`insert into secret_versions_next select id, secret_id, project_id, env_id, folder_id, type, user_id, key, version, value_ciphertext, comment_ciphertext, skip_multiline_encoding, reminder_note, reminder_repeat_days, metadata, actor_type, actor_id, actor_name, actor_membership_id, created_at from secret_versions`.execute(
          db,
        );
        await db.schema.dropTable("secret_versions").execute();
        await sql`alter table secret_versions_next rename to secret_versions`.execute(db);
        await db.schema
          .createIndex("secret_versions_secret_version_unique")
          .on("secret_versions")
          .columns(["secret_id", "version"])
          .unique()
          .execute();
      }
    },
  };
}
