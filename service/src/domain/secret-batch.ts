import {
  type BatchCreateBody,
  type BatchCreateItem,
  type BatchDeleteBody,
  type BatchUpdateBody,
  type CommitChangesBody,
  type CommitChangesResult,
  HIDDEN_SECRET_VALUE,
  type Secret,
  type SecretRecord,
} from "@keyhold/contract";
import type { Kysely } from "kysely";
import { findCommit } from "../data/folder-commits.ts";
import {
  deleteSecretRows,
  findProjectTags,
  findSecretsByKeys,
  isUniqueViolation,
  listTagLinks,
} from "../data/secrets.ts";
import { retryingTransaction } from "../data/transactions.ts";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import type { SecretRow } from "../db/schema-secrets.ts";
import { nowIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { BadRequestError, NotFoundError } from "./errors.ts";
import { commitView, type FolderCommits } from "./folder-commits.ts";
import { assertCan, canReadValue } from "./project-permissions.ts";
import { decryptField, type ProjectKeys } from "./secret-crypto.ts";
import { folderNotFound, type ProjectRef, type SecretScope, type SecretScopes } from "./secret-scope.ts";
import {
  bind,
  COMMENT,
  changeHeldSecrets,
  insertNewSecrets,
  metadataInput,
  normalizeSecretValue,
  type Rename,
  recordChanges,
  type SecretChange,
  rewriteReferences,
  type SecretWrite,
  secretRecord,
  secretWrite,
  VALUE,
} from "./secret-writes.ts";

export interface SecretBatchesDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  scopes: SecretScopes;
  keys: ProjectKeys;
  /** Point-in-time recovery: a batch is one commit of each folder it changes. */
  commits: Pick<FolderCommits, "record">;
}

type Target = ProjectRef & { environment: string; secretPath: string };
type Fields = { environment: string; secretPath: string; secretName: string; secretTags: string[] };

const byIdAscending = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byIdDescending = (a: { id: string }, b: { id: string }) => byIdAscending(b, a);

/**
 * Many secrets of one folder in one request, all or nothing: one transaction per batch, every
 * item checked (permissions, existence, names) before anything is written, and each write made by
 * the same core as the single endpoints (`secret-writes.ts`), so a failing item leaves no secret,
 * version or tag link behind. Answers keep the recorded server's order: creates by id descending,
 * updates by id ascending (then, in upsert mode, the created ones), deletes in the order asked.
 */
export function createSecretBatches({ db, dialect, scopes, keys, commits }: SecretBatchesDeps) {
  async function open(actor: Actor, target: Target) {
    const scope = await scopes.open(actor, target, target.environment);
    const folder = scope.tree.at(target.secretPath);
    if (!folder) throw folderNotFound(target.secretPath, scope.env.slug);
    const [key, identity] = await Promise.all([
      keys.keyFor(scope.projectId),
      db.selectFrom("identities").select("name").where("id", "=", actor.identityId).executeTakeFirst(),
    ]);
    const fields = (secretName: string, secretTags: readonly { slug: string }[]): Fields => ({
      environment: scope.env.slug,
      secretPath: target.secretPath,
      secretName,
      secretTags: secretTags.map((t) => t.slug),
    });
    const write = (trx: SecretWrite["trx"]): SecretWrite =>
      secretWrite({
        trx,
        scope,
        folderId: folder.id,
        secretPath: target.secretPath,
        key,
        actor,
        actorName: identity?.name ?? null,
        now: nowIso(),
      });
    return { scope, folder, key, fields, write };
  }

  /** The project's tags each item names, checked as the single endpoints check them. */
  async function tagsOf(projectId: string, items: readonly { tagIds?: string[] | undefined }[]) {
    const wanted = [...new Set(items.flatMap((item) => item.tagIds ?? []))];
    const found = new Map((await findProjectTags(db, projectId, wanted)).map((t) => [t.id, t]));
    return (tagIds: readonly string[]) => {
      const tags = tagIds.flatMap((id) => found.get(id) ?? []);
      if (tags.length !== tagIds.length || new Set(tagIds).size !== tagIds.length) {
        throw new NotFoundError(`Tag not found. Found ${tags.map((t) => t.slug).join(",")}`);
      }
      return tags;
    };
  }

  /** The tags of the folder's secrets, by secret id (for rules that speak of tags). */
  async function tagsBySecret(trx: SecretWrite["trx"], folderId: string) {
    const links = await listTagLinks(trx, { folderId });
    const map = new Map<string, { id: string; slug: string }[]>();
    for (const link of links) map.set(link.secret_id, [...(map.get(link.secret_id) ?? []), link]);
    return (secretId: string) => map.get(secretId) ?? [];
  }

  /** A stored secret as update and delete answer it: its value unless the caller may not read it. */
  function stored(row: SecretRow, scope: SecretScope, key: Buffer, readable: boolean): Secret {
    const value = readable
      ? decryptField(key, row.value_ciphertext, bind("secrets", row.id, VALUE))
      : HIDDEN_SECRET_VALUE;
    const comment = decryptField(key, row.comment_ciphertext, bind("secrets", row.id, COMMENT));
    return { ...secretRecord(row, scope, value, comment), secretValueHidden: !readable };
  }

  type Opened = Awaited<ReturnType<typeof open>>;

  /**
   * A create of many secrets, checked (tags, permissions) before any transaction; `run` writes
   * them in the caller's transaction, refusing a key the folder holds there.
   */
  async function planCreate({ scope, fields }: Opened, secrets: readonly BatchCreateItem[]) {
    const items = [...new Map(secrets.map((item) => [item.secretKey, item])).values()];
    if (items.some((item) => item.type === "personal")) {
      throw new BadRequestError("Must be user to create personal secret");
    }
    const tagsFor = await tagsOf(scope.projectId, items);
    const planned = items
      .map((item) => {
        const tags = tagsFor(item.tagIds ?? []);
        const itemFields = fields(item.secretKey, tags);
        assertCan(scope.access.ability, "create", "secrets", itemFields);
        return { item, tags, readable: canReadValue(scope.access.ability, itemFields) };
      })
      .sort((a, b) => (a.item.secretKey < b.item.secretKey ? -1 : 1));
    const exists = (names: string[]) => new BadRequestError(`Secret already exists: ${names.join(", ")}`);
    const run = async (w: SecretWrite): Promise<SecretRecord[]> => {
      const taken = await findSecretsByKeys(
        w.trx,
        dialect,
        w.folderId,
        planned.map((p) => p.item.secretKey),
      );
      if (taken.length > 0) throw exists(taken.map((row) => row.key));
      const values = planned.map(({ item }) => normalizeSecretValue(item.secretValue));
      const rows = await insertNewSecrets(
        w,
        planned.map(({ item, tags }, i) => ({
          name: item.secretKey,
          fields: {
            value: values[i] as string,
            comment: item.secretComment,
            skipMultilineEncoding: item.skipMultilineEncoding,
            reminderNote: item.secretReminderNote,
            reminderRepeatDays: item.secretReminderRepeatDays,
            metadata: metadataInput(item),
            tagIds: tags.map((t) => t.id),
          },
        })),
      );
      const out = rows.map((row, i) => {
        const { item, readable } = planned[i] as (typeof planned)[number];
        return secretRecord(row, w.scope, readable ? (values[i] as string) : HIDDEN_SECRET_VALUE, item.secretComment);
      });
      return out.sort(byIdDescending);
    };
    return { run, taken: () => exists(planned.map((p) => p.item.secretKey)) };
  }

  /**
   * An update of many secrets: one new version per secret named. A key given twice is refused
   * (which change should win is not the service's to guess); a new name may not be one a secret
   * of the folder holds when `run` reads it, nor one another item ends with.
   */
  async function planUpdate(
    { scope, key, fields }: Opened,
    body: Pick<BatchUpdateBody, "secretPath" | "secrets"> & { mode?: BatchUpdateBody["mode"] | undefined },
  ) {
    const ability = scope.access.ability;
    const seen = new Set<string>();
    for (const item of body.secrets) {
      if (seen.has(item.secretKey)) {
        throw new BadRequestError(`Secret ${item.secretKey} is named more than once in the batch`);
      }
      seen.add(item.secretKey);
    }
    const tagsFor = await tagsOf(scope.projectId, body.secrets);
    const upsert = body.mode === "upsert";
    const renamedTaken = () => new BadRequestError("Secret with the new name already exists");
    const run = async (w: SecretWrite): Promise<Secret[]> => {
      const { trx, folderId } = w;
      const shared = body.secrets.filter((item) => item.type === "shared");
      const current = await findSecretsByKeys(
        trx,
        dialect,
        folderId,
        shared.map((item) => item.secretKey),
        { lock: true },
      );
      const rowOf = new Map(current.map((row) => [row.key, row]));
      const missing = body.secrets.filter((item) => !rowOf.has(item.secretKey));
      if (missing.length > 0 && !upsert) {
        throw new NotFoundError(
          `Secret does not exist: ${missing.map((item) => item.secretKey).join(", ")} in path ${body.secretPath}`,
        );
      }
      if (missing.some((item) => item.type === "personal")) {
        throw new BadRequestError("Must be user to create personal secret");
      }
      const tagsNow = await tagsBySecret(trx, folderId);
      // Every name the batch ends with must be free: held by no other secret, given to one item only.
      const finalNames = new Map<string, string | undefined>();
      for (const item of body.secrets) {
        const row = rowOf.get(item.secretKey);
        const name = row ? (item.newSecretName ?? row.key) : item.secretKey;
        if (finalNames.has(name)) throw renamedTaken();
        finalNames.set(name, row?.id);
      }
      const newNames = body.secrets.flatMap((item) =>
        item.newSecretName && item.newSecretName !== item.secretKey ? [item.newSecretName] : [],
      );
      for (const holder of await findSecretsByKeys(trx, dialect, folderId, newNames)) {
        if (finalNames.get(holder.key) !== holder.id) throw renamedTaken();
      }

      // Every change is checked before any is written; the creates of an upsert are checked
      // after the changes were written, and a refusal there rolls those back with the rest.
      const renames: Rename[] = [];
      const readable = new Map<string, boolean>();
      const planned = body.secrets
        .filter((item) => rowOf.has(item.secretKey))
        .sort((a, b) => (a.secretKey < b.secretKey ? -1 : 1))
        .map((item) => {
          const current = rowOf.get(item.secretKey) as SecretRow;
          const oldTags = tagsNow(current.id);
          assertCan(ability, "edit", "secrets", fields(current.key, oldTags));
          const newTags = item.tagIds ? tagsFor(item.tagIds) : oldTags;
          const newName = item.newSecretName ?? current.key;
          const after = fields(newName, newTags);
          if (item.tagIds || newName !== current.key) assertCan(ability, "edit", "secrets", after);
          if (newName !== current.key) renames.push({ id: current.id, from: current.key, to: newName });
          readable.set(current.id, canReadValue(ability, after));
          const change: SecretChange = {
            newName,
            value: item.secretValue === undefined ? undefined : normalizeSecretValue(item.secretValue),
            comment: item.secretComment,
            skipMultilineEncoding: item.skipMultilineEncoding,
            reminderNote: item.secretReminderNote,
            reminderRepeatDays: item.secretReminderRepeatDays,
            reminderRecipients: item.secretReminderRecipients,
            metadata: metadataInput(item),
            tagIds: item.tagIds ? newTags.map((t) => t.id) : undefined,
          };
          return { current, change };
        });
      const changed = await changeHeldSecrets(w, dialect, planned);
      const gone = changed.findIndex((row) => row === undefined);
      if (gone >= 0) {
        const name = planned[gone]?.current.key;
        throw new NotFoundError(`Secret does not exist: ${name} in path ${body.secretPath}`);
      }
      const toCreate = [...missing]
        .sort((a, b) => (a.secretKey < b.secretKey ? -1 : 1))
        .map((item) => {
          const tags = tagsFor(item.tagIds ?? []);
          const itemFields = fields(item.secretKey, tags);
          assertCan(ability, "create", "secrets", itemFields);
          return {
            name: item.secretKey,
            readable: canReadValue(ability, itemFields),
            fields: {
              value: normalizeSecretValue(item.secretValue ?? ""),
              comment: item.secretComment ?? "",
              skipMultilineEncoding: item.skipMultilineEncoding,
              reminderNote: item.secretReminderNote,
              reminderRepeatDays: item.secretReminderRepeatDays,
              metadata: metadataInput(item),
              tagIds: tags.map((t) => t.id),
            },
          };
        });
      const created = await insertNewSecrets(w, toCreate);
      toCreate.forEach((item, i) => readable.set((created[i] as SecretRow).id, item.readable));
      await rewriteReferences(w, renames);
      return [...(changed as SecretRow[]).sort(byIdAscending), ...created.sort(byIdDescending)].map((row) =>
        stored(row, scope, key, readable.get(row.id) ?? false),
      );
    };
    return { run, taken: renamedTaken };
  }

  /** A delete of many secrets; a key given twice is deleted once. */
  function planDelete({ scope, key, fields }: Opened, secrets: BatchDeleteBody["secrets"]) {
    const names = [...new Set(secrets.filter((item) => item.type === "shared").map((item) => item.secretKey))];
    const asked = new Set(secrets.map((item) => item.secretKey)).size;
    return async (w: SecretWrite): Promise<Secret[]> => {
      const found = await findSecretsByKeys(w.trx, dialect, w.folderId, names, { lock: true });
      const rowOf = new Map(found.map((row) => [row.key, row]));
      const inOrder = names.flatMap((name) => rowOf.get(name) ?? []);
      if (inOrder.length !== asked) {
        // The recorded server names the keys it did find.
        throw new NotFoundError(`One or more secrets does not exist: ${inOrder.map((row) => row.key).join(", ")}`);
      }
      const tagsNow = await tagsBySecret(w.trx, w.folderId);
      const answers = inOrder.map((row) => {
        const rowFields = fields(row.key, tagsNow(row.id));
        assertCan(scope.access.ability, "delete", "secrets", rowFields);
        const {
          isRotatedSecret: _rotated,
          rotationId: _rotation,
          ...answer
        } = stored(row, scope, key, canReadValue(scope.access.ability, rowFields));
        return answer;
      });
      await deleteSecretRows(
        w.trx,
        inOrder.map((row) => row.id),
      );
      if (inOrder.length > 0) w.changed.set(w.folderId, scope.env.id);
      return answers;
    };
  }

  /**
   * Runs `work` in one transaction (retried on a serialization failure) and records one commit of
   * each folder it changed, in that transaction; a failure anywhere leaves nothing, commits included.
   * Answers what `work` answered and the commit of the batch's own folder, if it changed.
   */
  async function inOneCommit<T>(
    opened: Opened,
    message: string,
    work: (w: SecretWrite) => Promise<T>,
  ): Promise<{ result: T; commitId: string | undefined }> {
    return retryingTransaction(db, dialect, async (trx) => {
      const w = opened.write(trx);
      const result = await work(w);
      const ids = await recordChanges(w, commits, message);
      return { result, commitId: ids.get(opened.folder.id) };
    });
  }

  /** A unique violation (a name taken by a concurrent write) as the batch's own refusal. */
  async function refusingTaken<T>(taken: () => Error, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isUniqueViolation(error, dialect)) throw taken();
      throw error;
    }
  }

  return {
    /** The same key twice keeps one secret, with the last item's fields (as the mid-2026 server does). */
    async create(actor: Actor, body: BatchCreateBody): Promise<SecretRecord[]> {
      const opened = await open(actor, body);
      const plan = await planCreate(opened, body.secrets);
      return refusingTaken(plan.taken, async () => (await inOneCommit(opened, "Secrets Created", plan.run)).result);
    },

    async update(actor: Actor, body: BatchUpdateBody): Promise<Secret[]> {
      const opened = await open(actor, body);
      const plan = await planUpdate(opened, body);
      return refusingTaken(plan.taken, async () => (await inOneCommit(opened, "Secrets Updated", plan.run)).result);
    },

    async delete(actor: Actor, body: BatchDeleteBody): Promise<Secret[]> {
      const opened = await open(actor, body);
      return (await inOneCommit(opened, "Secrets Deleted", planDelete(opened, body.secrets))).result;
    },

    /**
     * A folder's mixed change set, all or nothing, as one commit with the caller's message: the
     * deletes first, then the updates (renames included), then the creates, so that a key deleted
     * and created again, or renamed into a name a delete frees, works. Each part is checked and
     * answered as its batch endpoint checks and answers it.
     */
    async commit(actor: Actor, body: CommitChangesBody): Promise<CommitChangesResult> {
      const { create = [], update = [], delete: remove = [] } = body.changes.secrets;
      if (create.length + update.length + remove.length === 0) throw new BadRequestError("No changes to commit");
      const opened = await open(actor, body);
      const creating = create.length > 0 ? await planCreate(opened, create) : undefined;
      const updating =
        update.length > 0 ? await planUpdate(opened, { secretPath: body.secretPath, secrets: update }) : undefined;
      const deleting = remove.length > 0 ? planDelete(opened, remove) : undefined;
      const taken = () => new BadRequestError("Secret already exists");
      const { result, commitId } = await refusingTaken(taken, () =>
        inOneCommit(opened, body.message, async (w) => {
          const deleted = (await deleting?.(w)) ?? [];
          const updated = (await updating?.run(w)) ?? [];
          const created = (await creating?.run(w)) ?? [];
          return { created, updated, deleted };
        }),
      );
      const row = commitId ? await findCommit(db, commitId) : undefined;
      // Every part changes the folder (an update writes a version even when nothing differs).
      if (!row) throw new Error("The change set recorded no commit of its folder");
      return { commit: commitView(row), secrets: result };
    },
  };
}

export type SecretBatches = ReturnType<typeof createSecretBatches>;
