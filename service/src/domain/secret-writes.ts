import { randomUUID } from "node:crypto";
import type { SecretRecord } from "@keyhold/contract";
import type { Transaction } from "kysely";
import { FolderTree, listEnvironmentFolders } from "../data/secret-folders.ts";
import {
  bumpSecret,
  insertSecrets,
  insertSecretVersions,
  insertTagLinks,
  replaceSecretTags,
  setSecrets,
} from "../data/secrets.ts";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import type { NewSecretVersion, SecretRow } from "../db/schema-secrets.ts";
import { toIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import type { FolderCommits } from "./folder-commits.ts";
import { decryptField, encryptField, fieldBinding, isEmptyField } from "./secret-crypto.ts";
import { referencesIn, resolveReference } from "./secret-references.ts";
import type { SecretScope } from "./secret-scope.ts";

/**
 * The one way a secret is written, shared by the single endpoints and the batches: a new secret,
 * a change (a new version, references rewritten on a rename, tags replaced), each inside the
 * caller's transaction, so a batch that fails on one item leaves nothing behind.
 */

export const VALUE = "value_ciphertext";
export const COMMENT = "comment_ciphertext";
export const bind = (table: "secrets" | "secret_versions", id: string, column: string) =>
  fieldBinding(table, id, column);

/** Stored timestamps as ISO text; the ones this service wrote (SQLite) are already in that form. */
export function isoOf(value: Date | string): string {
  return typeof value === "string" && value.length === 24 && value.endsWith("Z") ? value : toIso(value);
}

/** Infisical trims values but keeps one final newline. */
export function normalizeSecretValue(value: string): string {
  return value.endsWith("\n") ? `${value.trim()}\n` : value.trim();
}

/** What a write says about metadata: `secretMetadata`, else the legacy `metadata` record. */
export function metadataInput(input: {
  secretMetadata?: { key: string; value: string }[] | undefined;
  metadata?: Record<string, string> | undefined;
}): string | undefined {
  if (input.secretMetadata) return JSON.stringify(input.secretMetadata.map(({ key, value }) => ({ key, value })));
  if (input.metadata) return JSON.stringify(Object.entries(input.metadata).map(([key, value]) => ({ key, value })));
  return undefined;
}

/** The base record of a live secret, its value already decided (shown, hidden or echoed). */
export function secretRecord(row: SecretRow, scope: SecretScope, value: string, comment: string): SecretRecord {
  return {
    id: row.id,
    _id: row.id,
    workspace: scope.projectId,
    environment: scope.env.slug,
    version: row.version,
    type: row.type,
    secretKey: row.key,
    secretValue: value,
    secretComment: comment,
    secretReminderNote: row.reminder_note,
    secretReminderRepeatDays: row.reminder_repeat_days,
    skipMultilineEncoding: row.skip_multiline_encoding === 1,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
    isRotatedSecret: false,
    rotationId: null,
  };
}

/** One write: its transaction, the folder it works in, the project's data key and who writes. */
export interface SecretWrite {
  trx: Transaction<Database>;
  scope: SecretScope;
  folderId: string;
  secretPath: string;
  key: Buffer;
  actor: Actor;
  actorName: string | null;
  now: string;
  /** The folders this write changed (folder id → environment id), each to be recorded as one commit. */
  changed: Map<string, string>;
}

/** A write in `folderId` of `scope`, nothing changed yet. */
export function secretWrite(fields: Omit<SecretWrite, "changed">): SecretWrite {
  return { ...fields, changed: new Map() };
}

/**
 * Records one commit for each folder the write changed (point-in-time recovery), in the write's
 * transaction, so the commits exist exactly when the change does. Answers the commit ids by folder.
 */
export async function recordChanges(
  w: SecretWrite,
  commits: Pick<FolderCommits, "record">,
  message: string,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  // In one order everywhere, so that two writes lock the folders they both changed alike.
  for (const [folderId, envId] of [...w.changed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    ids.set(
      folderId,
      await commits.record(w.trx, { projectId: w.scope.projectId, envId, folderId, actor: w.actor, message }),
    );
  }
  return ids;
}

/** A secret's value and comment in clear, when the writer already holds them (else they are opened). */
interface Plain {
  value?: string | undefined;
  comment?: string | undefined;
}

/** The version row of a secret's current state (ciphertexts bound to the version row). */
function versionRow(w: SecretWrite, row: SecretRow, plain: Plain = {}): NewSecretVersion {
  const { key, actor } = w;
  const id = randomUUID();
  const value = plain.value ?? decryptField(key, row.value_ciphertext, bind("secrets", row.id, VALUE));
  const comment =
    plain.comment ??
    (isEmptyField(row.comment_ciphertext)
      ? ""
      : decryptField(key, row.comment_ciphertext, bind("secrets", row.id, COMMENT)));
  return {
    id,
    secret_id: row.id,
    project_id: row.project_id,
    env_id: row.env_id,
    folder_id: row.folder_id,
    type: row.type,
    user_id: row.user_id,
    key: row.key,
    version: row.version,
    value_ciphertext: encryptField(key, value, bind("secret_versions", id, VALUE)),
    comment_ciphertext: encryptField(key, comment, bind("secret_versions", id, COMMENT)),
    skip_multiline_encoding: row.skip_multiline_encoding,
    reminder_note: row.reminder_note,
    reminder_repeat_days: row.reminder_repeat_days,
    metadata: row.metadata,
    actor_type: "identity",
    actor_id: actor.identityId,
    actor_name: w.actorName,
    actor_membership_id: w.scope.access.membership.id,
    created_at: toIso(row.updated_at),
  };
}

/** The fields of a new shared secret, its value already normalised. */
export interface NewSecretFields {
  value: string;
  comment: string;
  skipMultilineEncoding?: boolean | undefined;
  reminderNote?: string | null | undefined;
  reminderRepeatDays?: number | null | undefined;
  metadata?: string | null | undefined;
  tagIds?: readonly string[] | undefined;
}

/**
 * Inserts new shared secrets, their first versions and their tags, a few hundred rows per
 * statement. The caller has checked the names are free; answers the rows in the order given.
 */
export async function insertNewSecrets(
  w: SecretWrite,
  items: readonly { name: string; fields: NewSecretFields }[],
): Promise<SecretRow[]> {
  const { key, scope } = w;
  const rows = items.map(({ name, fields }) => {
    const id = randomUUID();
    return {
      id,
      project_id: scope.projectId,
      env_id: scope.env.id,
      folder_id: w.folderId,
      type: "shared",
      user_id: null,
      key: name,
      version: 1,
      value_ciphertext: encryptField(key, fields.value, bind("secrets", id, VALUE)),
      comment_ciphertext: encryptField(key, fields.comment, bind("secrets", id, COMMENT)),
      skip_multiline_encoding: fields.skipMultilineEncoding ? 1 : 0,
      reminder_note: fields.reminderNote ?? null,
      reminder_repeat_days: fields.reminderRepeatDays ?? null,
      reminder_recipients: null,
      metadata: fields.metadata ?? null,
      created_at: w.now,
      updated_at: w.now,
    } satisfies SecretRow;
  });
  if (rows.length === 0) return rows;
  w.changed.set(w.folderId, scope.env.id);
  await insertSecrets(w.trx, rows);
  await insertSecretVersions(
    w.trx,
    rows.map((row, i) => versionRow(w, row, { value: items[i]?.fields.value, comment: items[i]?.fields.comment })),
  );
  await insertTagLinks(
    w.trx,
    rows.flatMap((row, i) => (items[i]?.fields.tagIds ?? []).map((tagId) => ({ secret_id: row.id, tag_id: tagId }))),
  );
  return rows;
}

/** Inserts one new shared secret (see `insertNewSecrets`). */
export async function insertNewSecret(w: SecretWrite, name: string, fields: NewSecretFields): Promise<SecretRow> {
  const [row] = await insertNewSecrets(w, [{ name, fields }]);
  return row as SecretRow;
}

/** What a change sets; fields left undefined are kept. `value` is already normalised. */
export interface SecretChange {
  newName?: string | undefined;
  value?: string | undefined;
  comment?: string | undefined;
  skipMultilineEncoding?: boolean | undefined;
  reminderNote?: string | null | undefined;
  reminderRepeatDays?: number | null | undefined;
  reminderRecipients?: string[] | undefined;
  metadata?: string | undefined;
  tagIds?: readonly string[] | undefined;
}

/**
 * Applies changes to secrets, each as one new version (the number taken in the same statement as
 * the change, see `bumpSecret`), and replaces their tags when given; the version rows are written
 * a few hundred per statement. Answers the changed rows in the order given, undefined for a
 * secret that is gone. A rename's references are rewritten by `rewriteReferences`, once for all
 * the renames of the write.
 */
export async function changeSecrets(
  w: SecretWrite,
  changes: readonly { current: SecretRow; change: SecretChange }[],
): Promise<(SecretRow | undefined)[]> {
  const out: (SecretRow | undefined)[] = [];
  const versions: NewSecretVersion[] = [];
  for (const { current, change } of changes) {
    const row = await bumpSecret(w.trx, current.id, patchOf(w, current, change));
    out.push(row);
    if (!row) continue;
    versions.push(versionRow(w, row, { value: change.value, comment: change.comment }));
    if (change.tagIds) await replaceSecretTags(w.trx, row.id, change.tagIds);
  }
  if (versions.length > 0) w.changed.set(w.folderId, w.scope.env.id);
  await insertSecretVersions(w.trx, versions);
  return out;
}

/** The columns a change sets, its new values sealed to the secret's row. */
function patchOf(w: SecretWrite, current: SecretRow, change: SecretChange) {
  const { key } = w;
  return {
    key: change.newName ?? current.key,
    updated_at: w.now,
    ...(change.value !== undefined && {
      value_ciphertext: encryptField(key, change.value, bind("secrets", current.id, VALUE)),
    }),
    ...(change.comment !== undefined && {
      comment_ciphertext: encryptField(key, change.comment, bind("secrets", current.id, COMMENT)),
    }),
    ...(change.skipMultilineEncoding !== undefined && {
      skip_multiline_encoding: change.skipMultilineEncoding ? 1 : 0,
    }),
    ...(change.reminderNote !== undefined && { reminder_note: change.reminderNote }),
    ...(change.reminderRepeatDays !== undefined && { reminder_repeat_days: change.reminderRepeatDays }),
    ...(change.reminderRecipients !== undefined && {
      reminder_recipients: JSON.stringify(change.reminderRecipients),
    }),
    ...(change.metadata !== undefined && { metadata: change.metadata }),
  };
}

/**
 * As `changeSecrets`, for rows this transaction read and holds (see `setSecrets`): each row's
 * whole new state is written, a few hundred rows per statement, instead of one UPDATE per secret.
 */
export async function changeHeldSecrets(
  w: SecretWrite,
  dialect: Dialect,
  changes: readonly { current: SecretRow; change: SecretChange }[],
): Promise<(SecretRow | undefined)[]> {
  const states = changes.map(({ current, change }) => ({
    id: current.id,
    value_ciphertext: current.value_ciphertext,
    comment_ciphertext: current.comment_ciphertext,
    skip_multiline_encoding: current.skip_multiline_encoding,
    reminder_note: current.reminder_note,
    reminder_repeat_days: current.reminder_repeat_days,
    reminder_recipients: current.reminder_recipients,
    metadata: current.metadata,
    ...patchOf(w, current, change),
  }));
  const written = new Map((await setSecrets(w.trx, dialect, states)).map((row) => [row.id, row]));
  const out = changes.map(({ current }) => written.get(current.id));
  const versions: NewSecretVersion[] = [];
  for (const [i, row] of out.entries()) {
    const change = changes[i]?.change;
    if (!row || !change) continue;
    versions.push(versionRow(w, row, { value: change.value, comment: change.comment }));
    if (change.tagIds) await replaceSecretTags(w.trx, row.id, change.tagIds);
  }
  if (versions.length > 0) w.changed.set(w.folderId, w.scope.env.id);
  await insertSecretVersions(w.trx, versions);
  return out;
}

/** Applies one change (see `changeSecrets`). */
export async function changeSecret(
  w: SecretWrite,
  current: SecretRow,
  change: SecretChange,
): Promise<SecretRow | undefined> {
  const [row] = await changeSecrets(w, [{ current, change }]);
  return row;
}

/** A shared secret of the write's folder that changed its name. */
export interface Rename {
  id: string;
  from: string;
  to: string;
}

/**
 * After shared secrets are renamed, references to them in the project's other secrets (`${OLD}`
 * in their folder, `${env.path.OLD}` anywhere) are rewritten to the new names, each such secret
 * getting a new version, as current Infisical does. Runs in the renames' transaction; the
 * project's secrets are read once however many renames there are.
 */
export async function rewriteReferences(w: SecretWrite, renames: readonly Rename[]): Promise<void> {
  if (renames.length === 0) return;
  const { scope, key, trx } = w;
  const byOldName = new Map(renames.map((r) => [r.from, r]));
  const [rows, envs] = await Promise.all([
    trx
      .selectFrom("secrets")
      .selectAll()
      .where("project_id", "=", scope.projectId)
      .where("type", "=", "shared")
      .execute(),
    trx.selectFrom("project_environments").select(["id", "slug"]).where("project_id", "=", scope.projectId).execute(),
  ]);
  const slugOf = new Map(envs.map((e) => [e.id, e.slug]));
  const trees = new Map<string, FolderTree>();
  for (const row of rows) {
    const value = decryptField(key, row.value_ciphertext, bind("secrets", row.id, VALUE));
    const bodies = referencesIn(value);
    if (bodies.length === 0) continue;
    let tree = trees.get(row.env_id);
    if (!tree) {
      tree = new FolderTree(await listEnvironmentFolders(trx, row.env_id));
      trees.set(row.env_id, tree);
    }
    const from = { environment: slugOf.get(row.env_id) ?? "", secretPath: tree.pathOf(row.folder_id) };
    let next = value;
    for (const body of bodies) {
      const target = resolveReference(body, from);
      if (!target || target.environment !== scope.env.slug || target.secretPath !== w.secretPath) continue;
      const renamed = byOldName.get(target.secretKey);
      // A secret's reference to itself is left as it was.
      if (!renamed || renamed.id === row.id) continue;
      const parts = body.split(".");
      parts[parts.length - 1] = renamed.to;
      next = next.split(`\${${body}}`).join(`\${${parts.join(".")}}`);
    }
    if (next === value) continue;
    const bumped = await bumpSecret(trx, row.id, {
      value_ciphertext: encryptField(key, next, bind("secrets", row.id, VALUE)),
      updated_at: w.now,
    });
    if (!bumped) continue;
    await insertSecretVersions(trx, [versionRow(w, bumped)]);
    w.changed.set(bumped.folder_id, bumped.env_id);
  }
}
