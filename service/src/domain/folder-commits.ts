import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { FolderCommit } from "@keyhold/contract";
import {
  type CommitListing,
  commitAtOrBefore,
  type FolderState,
  findVersions,
  insertCommit,
  lastCommitSeq,
  lockFolder,
  maxVersions,
  parseState,
  pruneCommits,
  readFolderState,
} from "../data/folder-commits.ts";
import { deleteFolderRow, insertFolder, renameFolder } from "../data/secret-folders.ts";
import { bumpSecret, replaceSecretTags } from "../data/secrets.ts";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import type { NewSecretVersion, SecretVersionRow } from "../db/schema-secrets.ts";
import { nowIso, toIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { BadRequestError } from "./errors.ts";
import { decryptField, encryptField, fieldBinding, type ProjectKeys } from "./secret-crypto.ts";

const VALUE = "value_ciphertext";
const COMMENT = "comment_ciphertext";

/** A commit as the commit list answers it. */
export const commitView = (row: CommitListing): FolderCommit => ({
  id: row.id,
  folderId: row.folder_id,
  actorType: row.actor_type,
  actorMetadata: { id: row.actor_id, name: row.actor_name },
  message: row.message,
  commitId: String(row.seq),
  createdAt: toIso(row.created_at),
  envId: row.env_id,
});

/** What a write path tells the recorder: which folder changed, by whom, and why. */
export interface FolderChange {
  projectId: string;
  envId: string;
  folderId: string;
  actor: Actor;
  message: string;
}

export interface RestoreCounts {
  secretChanges: number;
  folderChanges: number;
}

export interface FolderCommitsDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  keys: ProjectKeys;
}

/**
 * Point-in-time recovery's write side. Every write path calls `record` inside its own transaction,
 * after its change, so a commit exists exactly when the change does (a batch calls it once).
 * `restore` puts a folder back to a recorded state in the caller's transaction.
 */
export function createFolderCommits({ db, dialect, keys }: FolderCommitsDeps) {
  async function actorName(trx: Transaction<Database>, actor: Actor): Promise<string | null> {
    const row = await trx.selectFrom("identities").select("name").where("id", "=", actor.identityId).executeTakeFirst();
    return row?.name ?? null;
  }

  /** Records the folder's state as it now is in `trx`, then prunes by the project's `pitVersionLimit`. */
  async function record(trx: Transaction<Database>, change: FolderChange): Promise<string> {
    await lockFolder(trx, dialect, change.folderId);
    const [state, seq, folder, project, name] = await Promise.all([
      readFolderState(trx, change.folderId),
      lastCommitSeq(trx, change.folderId),
      trx.selectFrom("secret_folders").select("parent_id").where("id", "=", change.folderId).executeTakeFirst(),
      trx.selectFrom("projects").select("pit_version_limit").where("id", "=", change.projectId).executeTakeFirst(),
      actorName(trx, change.actor),
    ]);
    const id = randomUUID();
    await insertCommit(trx, {
      id,
      project_id: change.projectId,
      env_id: change.envId,
      folder_id: change.folderId,
      parent_folder_id: folder?.parent_id ?? null,
      seq: seq + 1,
      actor_type: "identity",
      actor_id: change.actor.identityId,
      actor_name: name,
      message: change.message,
      state: JSON.stringify(state),
      created_at: nowIso(),
    });
    await pruneCommits(
      trx,
      change.folderId,
      seq + 1,
      project?.pit_version_limit ?? 10,
      new Set(state.secrets.map((s) => s.id)),
    );
    return id;
  }

  interface RestoreContext {
    projectId: string;
    envId: string;
    key: Buffer;
    actor: Actor;
    name: string | null;
    message: string;
    now: string;
    /** The time of the commit restored: a sub-folder is put back as it was then. */
    at: Date | string;
    deep: boolean;
  }

  function versionRow(
    secret: { id: string; key: string; version: number; folderId: string },
    from: SecretVersionRow,
    value: string,
    comment: string,
    context: RestoreContext,
  ): NewSecretVersion {
    const id = randomUUID();
    return {
      id,
      secret_id: secret.id,
      project_id: context.projectId,
      env_id: context.envId,
      folder_id: secret.folderId,
      type: "shared",
      user_id: null,
      key: secret.key,
      version: secret.version,
      value_ciphertext: encryptField(context.key, value, fieldBinding("secret_versions", id, VALUE)),
      comment_ciphertext: encryptField(context.key, comment, fieldBinding("secret_versions", id, COMMENT)),
      skip_multiline_encoding: from.skip_multiline_encoding,
      reminder_note: from.reminder_note,
      reminder_repeat_days: from.reminder_repeat_days,
      metadata: from.metadata,
      actor_type: "identity",
      actor_id: context.actor.identityId,
      actor_name: context.name,
      actor_membership_id: null,
      created_at: context.now,
    };
  }

  /** The secrets of one folder back to `target`: extra ones deleted, missing ones back, changed ones a new version. */
  async function restoreSecrets(
    trx: Transaction<Database>,
    folderId: string,
    current: FolderState,
    target: FolderState,
    context: RestoreContext,
  ): Promise<number> {
    const now = new Map(current.secrets.map((s) => [s.id, s]));
    const wanted = new Set(target.secrets.map((s) => s.id));
    const extra = current.secrets.filter((s) => !wanted.has(s.id)).map((s) => s.id);
    for (let i = 0; i < extra.length; i += 500) {
      await trx
        .deleteFrom("secrets")
        .where("id", "in", extra.slice(i, i + 500))
        .execute();
    }
    const sameTags = (a: string[], b: string[]) => a.length === b.length && a.every((t, i) => t === b[i]);
    const changed = target.secrets.filter((t) => {
      const c = now.get(t.id);
      return !c || c.version !== t.version || !sameTags(c.tags, t.tags);
    });
    const rewrite = changed.filter((t) => now.get(t.id)?.version !== t.version);
    const [versions, highest] = await Promise.all([
      findVersions(trx, rewrite),
      maxVersions(
        trx,
        rewrite.filter((t) => !now.has(t.id)).map((t) => t.id),
      ),
    ]);
    // Keys may be swapped between kept secrets: move the renamed ones out of the way first.
    for (const t of rewrite) {
      const c = now.get(t.id);
      if (c && c.key !== t.key) {
        await trx
          .updateTable("secrets")
          .set({ key: `${t.id}.restoring` })
          .where("id", "=", t.id)
          .execute();
      }
    }
    const newRows = [];
    const newVersions: NewSecretVersion[] = [];
    for (const t of rewrite) {
      const from = versions.get(`${t.id}:${t.version}`);
      if (!from) throw new BadRequestError(`Version ${t.version} of secret ${t.key} is no longer stored`);
      const value = decryptField(context.key, from.value_ciphertext, fieldBinding("secret_versions", from.id, VALUE));
      const comment = decryptField(
        context.key,
        from.comment_ciphertext,
        fieldBinding("secret_versions", from.id, COMMENT),
      );
      const content = {
        key: t.key,
        value_ciphertext: encryptField(context.key, value, fieldBinding("secrets", t.id, VALUE)),
        comment_ciphertext: encryptField(context.key, comment, fieldBinding("secrets", t.id, COMMENT)),
        skip_multiline_encoding: from.skip_multiline_encoding,
        reminder_note: from.reminder_note,
        reminder_repeat_days: from.reminder_repeat_days,
        metadata: from.metadata,
        updated_at: context.now,
      };
      if (now.has(t.id)) {
        const row = await bumpSecret(trx, t.id, content);
        if (!row) continue;
        newVersions.push(
          versionRow({ id: t.id, key: t.key, version: row.version, folderId }, from, value, comment, context),
        );
      } else {
        const version = (highest.get(t.id) ?? 0) + 1;
        newRows.push({
          id: t.id,
          project_id: context.projectId,
          env_id: context.envId,
          folder_id: folderId,
          type: "shared",
          user_id: null,
          version,
          reminder_recipients: null,
          created_at: context.now,
          ...content,
        });
        newVersions.push(versionRow({ id: t.id, key: t.key, version, folderId }, from, value, comment, context));
      }
    }
    for (let i = 0; i < newRows.length; i += 200) {
      await trx
        .insertInto("secrets")
        .values(newRows.slice(i, i + 200))
        .execute();
    }
    for (let i = 0; i < newVersions.length; i += 200) {
      await trx
        .insertInto("secret_versions")
        .values(newVersions.slice(i, i + 200))
        .execute();
    }
    const tagged = changed.filter((t) => !now.has(t.id) || !sameTags(now.get(t.id)?.tags ?? [], t.tags));
    if (tagged.length > 0) {
      const live = new Set(
        (await trx.selectFrom("secret_tags").select("id").where("project_id", "=", context.projectId).execute()).map(
          (t) => t.id,
        ),
      );
      for (const t of tagged) {
        await replaceSecretTags(
          trx,
          t.id,
          t.tags.filter((id) => live.has(id)),
        );
      }
    }
    return extra.length + changed.length;
  }

  async function restoreImports(
    trx: Transaction<Database>,
    folderId: string,
    current: FolderState,
    target: FolderState,
    context: RestoreContext,
  ): Promise<number> {
    const sig = (i: FolderState["imports"][number]) => `${i.id}|${i.envId}|${i.path}|${i.position}|${i.isReplication}`;
    const before = new Set(current.imports.map(sig));
    const after = new Set(target.imports.map(sig));
    const changes = [...before].filter((s) => !after.has(s)).length + [...after].filter((s) => !before.has(s)).length;
    if (changes === 0) return 0;
    await trx.deleteFrom("secret_imports").where("folder_id", "=", folderId).execute();
    const envs = new Set(
      (
        await trx.selectFrom("project_environments").select("id").where("project_id", "=", context.projectId).execute()
      ).map((e) => e.id),
    );
    const rows = target.imports
      .filter((i) => envs.has(i.envId))
      .map((i, index) => ({
        id: i.id,
        folder_id: folderId,
        import_env_id: i.envId,
        import_path: i.path,
        position: index + 1,
        is_replication: i.isReplication ? 1 : 0,
        is_replication_success: null,
        replication_status: null,
        last_replicated: null,
        created_at: context.now,
        updated_at: context.now,
      }));
    if (rows.length > 0) await trx.insertInto("secret_imports").values(rows).execute();
    return changes;
  }

  /** One folder (and, deep, the sub-folders it keeps) back to `target`; each folder restored gets a commit. */
  async function restore(
    trx: Transaction<Database>,
    folderId: string,
    target: FolderState,
    context: RestoreContext,
  ): Promise<RestoreCounts> {
    const current = await readFolderState(trx, folderId);
    let secretChanges = await restoreSecrets(trx, folderId, current, target, context);
    let folderChanges = await restoreImports(trx, folderId, current, target, context);
    const wanted = new Map(target.folders.map((f) => [f.id, f]));
    for (const child of current.folders) {
      if (!wanted.has(child.id)) {
        await deleteFolderRow(trx, child.id);
        folderChanges++;
      }
    }
    const present = new Map(current.folders.map((f) => [f.id, f]));
    for (const child of target.folders) {
      const existing = present.get(child.id);
      if (!existing) {
        await insertFolder(trx, {
          id: child.id,
          envId: context.envId,
          parentId: folderId,
          name: child.name,
          description: child.description,
          now: context.now,
        });
        folderChanges++;
      } else if (existing.name !== child.name || existing.description !== child.description) {
        await renameFolder(trx, child.id, { name: child.name, description: child.description, now: context.now });
        folderChanges++;
      }
      // A folder brought back gets its contents back too; one that stayed only on a deep rollback.
      if (existing && !context.deep) continue;
      const then = await commitAtOrBefore(trx, child.id, context.at);
      if (!then) continue;
      const counts = await restore(trx, child.id, parseState(then), context);
      secretChanges += counts.secretChanges;
      folderChanges += counts.folderChanges;
    }
    if (secretChanges + folderChanges > 0) {
      await record(trx, {
        projectId: context.projectId,
        envId: context.envId,
        folderId,
        actor: context.actor,
        message: context.message,
      });
    }
    return { secretChanges, folderChanges };
  }

  return {
    record,

    /**
     * Puts a folder back to `target` in one transaction of its own, as `actor`; the result is a
     * new commit of the folder (recorded even when nothing changed, so the rollback shows in history).
     */
    async rollback(
      folder: { projectId: string; envId: string; folderId: string },
      target: FolderState,
      options: { actor: Actor; message: string; at: Date | string; deep: boolean },
    ): Promise<RestoreCounts & { commitId: string }> {
      const key = await keys.keyFor(folder.projectId);
      return db.transaction().execute(async (trx) => {
        await lockFolder(trx, dialect, folder.folderId);
        const counts = await restore(trx, folder.folderId, target, {
          projectId: folder.projectId,
          envId: folder.envId,
          key,
          actor: options.actor,
          name: await actorName(trx, options.actor),
          message: options.message,
          now: nowIso(),
          at: options.at,
          deep: options.deep,
        });
        const latest = await trx
          .selectFrom("folder_commits")
          .select(["id", "seq"])
          .where("folder_id", "=", folder.folderId)
          .orderBy("seq", "desc")
          .limit(1)
          .executeTakeFirst();
        const commitId =
          counts.secretChanges + counts.folderChanges > 0 && latest
            ? latest.id
            : await record(trx, { ...folder, actor: options.actor, message: options.message });
        return { ...counts, commitId };
      });
    },
  };
}

export type FolderCommits = ReturnType<typeof createFolderCommits>;
