import {
  type CreateSecretBody,
  type DeleteSecretBody,
  type GetSecretQuery,
  HIDDEN_SECRET_VALUE,
  type ListedSecret as ListedSecretView,
  type ListSecretsQuery,
  type ResolvedImport,
  type Secret,
  type SecretDetail,
  type SecretMetadataEntry,
  type SecretRecord,
  type SecretTagRef,
  type SecretVersion,
  type UpdateSecretBody,
} from "@keyhold/contract";
import type { Kysely, Transaction } from "kysely";
import type { SecretFolderRow } from "../db/schema-secrets.ts";
import {
  deleteSecretRow,
  findProjectTags,
  findSecretById,
  findSecretByKey,
  findSecretVersion,
  isUniqueViolation,
  listEnvironmentSecrets,
  listFolderSecrets,
  listSecretTags,
  listSecretVersions,
  type ListedSecret,
  listTagLinks,
  type TagLink,
} from "../data/secrets.ts";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import type { SecretRow, SecretVersionRow } from "../db/schema-secrets.ts";
import { nowIso, toIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { BadRequestError, NotFoundError, PermissionDeniedError } from "./errors.ts";
import type { FolderCommits } from "./folder-commits.ts";
import {
  assertCan,
  canDescribe,
  canReadValue,
  type ProjectAccess,
  type ProjectPermissions,
} from "./project-permissions.ts";
import { decryptField, isEmptyField, type ProjectKeys, valueDigest, valueDigestKey } from "./secret-crypto.ts";
import { secretGate } from "./secret-gate.ts";
import { folderNotFound, type SecretScope, type SecretScopes } from "./secret-scope.ts";
import {
  bind,
  COMMENT,
  changeSecret,
  insertNewSecret,
  isoOf,
  metadataInput,
  normalizeSecretValue,
  recordChanges,
  rewriteReferences,
  type SecretWrite,
  secretRecord,
  secretWrite,
  VALUE,
} from "./secret-writes.ts";

/** Shared by every secret without tags or metadata (answers are serialised, never changed). */
const NO_TAGS: SecretTagRef[] = [];
const NO_METADATA: SecretMetadataEntry[] = [];

function parseMetadata(text: string | null): SecretMetadataEntry[] {
  if (!text) return NO_METADATA;
  return (JSON.parse(text) as { key: string; value: string }[]).map((m) => ({
    key: m.key,
    value: m.value,
    isEncrypted: false,
  }));
}

const tagRef = (t: TagLink): SecretTagRef => ({ id: t.id, slug: t.slug, color: t.color, name: t.slug });

/** A folder a secret call works in: scope, folder and its path. */
export interface FolderContext {
  actor: Actor;
  scope: SecretScope;
  folder: SecretFolderRow;
  secretPath: string;
  viewSecretValue: boolean;
  /** Set on a list that asked for references expanded (imported values are expanded too). */
  expandSecretReferences?: boolean;
}

/**
 * What other parts add to the raw list and get: secret imports (`include_imports`) and reference
 * expansion (`expandSecretReferences`). Registered once at start (`extend`).
 */
export interface SecretExtensions {
  /** The secrets the folder's imports provide, in import position order. */
  resolveImports?(context: FolderContext): Promise<ResolvedImport[]>;
  /** A key not found in the folder itself, looked up in its imports (the last import wins). */
  findImported?(context: FolderContext, secretName: string): Promise<SecretDetail | undefined>;
  /** Expands `${…}` references in the values of these secrets (in place). */
  expandReferences?(context: FolderContext, secrets: SecretDetail[]): Promise<void>;
}

export interface SecretServiceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  projectPermissions: ProjectPermissions;
  scopes: SecretScopes;
  keys: ProjectKeys;
  /** Point-in-time recovery: each write records the folder's new state in its transaction. */
  commits: Pick<FolderCommits, "record">;
}

/**
 * Raw secrets: values and comments encrypted at rest, a new version for every change, and each
 * secret checked against the caller's rules by environment, path, name and tags.
 */
export function createSecretService({ db, dialect, projectPermissions, scopes, keys, commits }: SecretServiceDeps) {
  const extensions: SecretExtensions = {};
  const change = (context: FolderContext, message: string) => ({
    projectId: context.scope.projectId,
    envId: context.scope.env.id,
    folderId: context.folder.id,
    actor: context.actor,
    message,
  });

  function folderOf(scope: SecretScope, secretPath: string): SecretFolderRow {
    const folder = scope.tree.at(secretPath);
    if (!folder) throw folderNotFound(secretPath, scope.env.slug);
    return folder;
  }

  async function actorName(actor: Actor): Promise<string | null> {
    const row = await db.selectFrom("identities").select("name").where("id", "=", actor.identityId).executeTakeFirst();
    return row?.name ?? null;
  }

  const record = secretRecord;

  /** The list/get view of one secret, built in one object (lists build thousands). */
  function detail(
    row: ListedSecret,
    scope: SecretScope,
    secretPath: string,
    key: Buffer,
    showValue: boolean,
    tags: SecretTagRef[],
  ): SecretDetail {
    return {
      id: row.id,
      _id: row.id,
      workspace: scope.projectId,
      environment: scope.env.slug,
      version: row.version,
      type: row.type,
      secretKey: row.key,
      secretValue: showValue
        ? decryptField(key, row.value_ciphertext, bind("secrets", row.id, VALUE))
        : HIDDEN_SECRET_VALUE,
      secretComment: isEmptyField(row.comment_ciphertext)
        ? ""
        : decryptField(key, row.comment_ciphertext, bind("secrets", row.id, COMMENT)),
      secretReminderNote: row.reminder_note,
      secretReminderRepeatDays: row.reminder_repeat_days,
      skipMultilineEncoding: row.skip_multiline_encoding === 1,
      createdAt: isoOf(row.created_at),
      updatedAt: isoOf(row.updated_at),
      isRotatedSecret: false,
      rotationId: null,
      secretValueHidden: !showValue,
      secretPath,
      tags,
      secretMetadata: parseMetadata(row.metadata),
    };
  }

  /** An older version of a secret in the get view (`?version=`). */
  function versionDetail(
    version: SecretVersionRow,
    row: SecretRow,
    scope: SecretScope,
    secretPath: string,
    key: Buffer,
    showValue: boolean,
    tags: SecretTagRef[],
  ): SecretDetail {
    const at = (column: string) => bind("secret_versions", version.id, column);
    return {
      ...record(
        { ...row, key: version.key, version: version.version, updated_at: version.created_at },
        scope,
        showValue ? decryptField(key, version.value_ciphertext, at(VALUE)) : HIDDEN_SECRET_VALUE,
        decryptField(key, version.comment_ciphertext, at(COMMENT)),
      ),
      secretReminderNote: version.reminder_note,
      secretReminderRepeatDays: version.reminder_repeat_days,
      skipMultilineEncoding: version.skip_multiline_encoding === 1,
      secretPath,
      secretValueHidden: !showValue,
      secretMetadata: parseMetadata(version.metadata),
      tags,
    };
  }

  /** A secret's tags, as secrets show them. */
  async function tagsOf(secretId: string): Promise<SecretTagRef[]> {
    return (await listSecretTags(db, secretId)).map(tagRef);
  }

  async function requireTags(projectId: string, tagIds: readonly string[]): Promise<SecretTagRef[]> {
    const found = await findProjectTags(db, projectId, tagIds);
    if (found.length !== tagIds.length || new Set(tagIds).size !== tagIds.length) {
      throw new NotFoundError(`Tag not found. Found ${found.map((t) => t.slug).join(",")}`);
    }
    return found.map((t) => ({ id: t.id, slug: t.slug, color: t.color, name: t.slug }));
  }

  async function findInFolder(context: FolderContext, secretName: string, type: string | undefined) {
    if (type === "personal") return undefined;
    return findSecretByKey(db, context.folder.id, secretName);
  }

  /**
   * The secrets of one folder (or, recursive, of it and every folder below) that the caller may
   * describe, decrypted in one pass. One query for the rows and one for their tags; the data key
   * is unwrapped at most once; the permission checks are built once for the request.
   */
  async function listFolder(
    context: FolderContext,
    options: {
      recursive: boolean;
      tagSlugs?: string[] | undefined;
      unreadable: "refuse" | "hide";
      /** Adds `secretValueDigest` to each secret whose value the caller may read. */
      digests?: boolean | undefined;
    },
  ): Promise<ListedSecretView[]> {
    const { scope, folder, viewSecretValue } = context;
    const ability = scope.access.ability;
    const envSlug = scope.env.slug;
    const recursive = options.recursive;
    const inFolders = recursive ? new Set([folder.id, ...scope.tree.descendantsOf(folder.id).map((f) => f.id)]) : null;
    const [rows, links, key] = await Promise.all([
      recursive ? listEnvironmentSecrets(db, dialect, scope.env.id) : listFolderSecrets(db, dialect, folder.id),
      recursive ? listTagLinks(db, { envId: scope.env.id }) : listTagLinks(db, { folderId: folder.id }),
      keys.keyFor(scope.projectId),
    ]);
    const tagsBySecret = new Map<string, SecretTagRef[]>();
    for (const link of links) {
      const list = tagsBySecret.get(link.secret_id);
      if (list) list.push(tagRef(link));
      else tagsBySecret.set(link.secret_id, [tagRef(link)]);
    }
    const describe = secretGate(ability, "describe");
    const readValue = secretGate(ability, "readValue");
    const wanted = options.tagSlugs && options.tagSlugs.length > 0 ? new Set(options.tagSlugs) : null;
    const digestKey = options.digests ? valueDigestKey(key) : null;
    const out: ListedSecretView[] = [];
    for (const row of rows) {
      if (inFolders && !inFolders.has(row.folder_id)) continue;
      const tags = tagsBySecret.get(row.id) ?? NO_TAGS;
      if (wanted && !tags.some((t) => wanted.has(t.slug))) continue;
      const secretPath = recursive ? scope.tree.pathOf(row.folder_id) : context.secretPath;
      if (!describe(envSlug, secretPath, row.key, tags)) continue;
      let showValue = viewSecretValue;
      if (showValue && !readValue(envSlug, secretPath, row.key, tags)) {
        // Asking for values of the requested folder without readValue is refused, as Infisical does;
        // secrets of folders below it are left out instead (imports and references hide them).
        if (options.unreadable === "hide") showValue = false;
        else if (row.folder_id === folder.id) {
          assertCan(ability, "readValue", "secrets", {
            environment: envSlug,
            secretPath,
            secretName: row.key,
            secretTags: tags.map((t) => t.slug),
          });
        } else continue;
      }
      const secret: ListedSecretView = detail(row, scope, secretPath, key, showValue, tags);
      // The digest is given for exactly the values the caller could read, shown or not.
      if (digestKey && (showValue || readValue(envSlug, secretPath, row.key, tags))) {
        const value = showValue
          ? secret.secretValue
          : decryptField(key, row.value_ciphertext, bind("secrets", row.id, VALUE));
        secret.secretValueDigest = valueDigest(digestKey, value);
      }
      out.push(secret);
    }
    return out;
  }

  /** A write in the folder of `context`, inside `trx`. */
  function writeAt(context: FolderContext, trx: Transaction<Database>, key: Buffer, name: string | null): SecretWrite {
    return secretWrite({
      trx,
      scope: context.scope,
      folderId: context.folder.id,
      secretPath: context.secretPath,
      key,
      actor: context.actor,
      actorName: name,
      now: nowIso(),
    });
  }

  async function folderContext(
    actor: Actor,
    input: { environment?: string | undefined; secretPath: string } & Parameters<SecretScopes["open"]>[1],
    viewSecretValue: boolean,
    missing?: string,
  ): Promise<FolderContext> {
    const scope = await scopes.open(actor, input, input.environment, missing);
    return { actor, scope, folder: folderOf(scope, input.secretPath), secretPath: input.secretPath, viewSecretValue };
  }

  return {
    /** Registers what the imports and references parts add to list and get. */
    extend(more: SecretExtensions): void {
      Object.assign(extensions, more);
    },

    /** The secrets one folder gives a caller whose access is already loaded (imports, references). */
    async readFolder(
      actor: Actor,
      access: ProjectAccess,
      envSlug: string,
      secretPath: string,
      viewSecretValue: boolean,
    ): Promise<SecretDetail[] | undefined> {
      const env = await scopes.environment(access.project.id, envSlug).catch(() => undefined);
      if (!env) return undefined;
      const scope: SecretScope = { access, projectId: access.project.id, env, tree: await scopes.treeOf(env.id) };
      const folder = scope.tree.at(secretPath);
      if (!folder) return undefined;
      // Values the caller may not read are hidden here rather than refused.
      return listFolder(
        { actor, scope, folder, secretPath, viewSecretValue },
        { recursive: false, unreadable: "hide" },
      );
    },

    /**
     * Every shared secret of a folder with its value and tag slugs, not filtered by any caller's
     * rules: for reference expansion, which asks the caller's permission per referenced secret.
     * Undefined when the environment or the folder does not exist.
     */
    async folderValues(
      projectId: string,
      envSlug: string,
      secretPath: string,
    ): Promise<Map<string, { value: string; tags: string[] }> | undefined> {
      const env = await scopes.environment(projectId, envSlug).catch(() => undefined);
      if (!env) return undefined;
      const folder = (await scopes.treeOf(env.id)).at(secretPath);
      if (!folder) return undefined;
      const [rows, links, key] = await Promise.all([
        listFolderSecrets(db, dialect, folder.id),
        listTagLinks(db, { folderId: folder.id }),
        keys.keyFor(projectId),
      ]);
      const tags = new Map<string, string[]>();
      for (const link of links) tags.set(link.secret_id, [...(tags.get(link.secret_id) ?? []), link.slug]);
      return new Map(
        rows.map((row) => [
          row.key,
          {
            value: decryptField(key, row.value_ciphertext, bind("secrets", row.id, VALUE)),
            tags: tags.get(row.id) ?? [],
          },
        ]),
      );
    },

    async list(
      actor: Actor,
      query: ListSecretsQuery,
    ): Promise<{ secrets: ListedSecretView[]; imports: ResolvedImport[] }> {
      const context = await folderContext(actor, query, query.viewSecretValue ?? true);
      // A caller with no rule at all about reading secrets is refused outright.
      if (!canDescribe(context.scope.access.ability)) {
        assertCan(context.scope.access.ability, "describeSecret", "secrets");
      }
      const secrets = await listFolder(context, {
        recursive: query.recursive ?? false,
        tagSlugs: query.tagSlugs,
        unreadable: "refuse",
        digests: query.includeValueDigests,
      });
      if (query.expandSecretReferences && extensions.expandReferences) {
        await extensions.expandReferences(context, secrets);
      }
      const imports =
        query.include_imports && extensions.resolveImports
          ? await extensions.resolveImports({ ...context, expandSecretReferences: query.expandSecretReferences })
          : [];
      return { secrets, imports };
    },

    async get(actor: Actor, secretName: string, query: GetSecretQuery): Promise<SecretDetail> {
      const context = await folderContext(
        actor,
        query,
        query.viewSecretValue ?? true,
        query.environment ? "You must provide workspaceSlug or workspaceId" : "Missing environment",
      );
      const { scope } = context;
      const notFound = () => new NotFoundError(`Secret with name '${secretName}' not found`);
      const row = await findInFolder(context, secretName, query.type);
      if (!row) {
        const imported =
          query.include_imports && extensions.findImported
            ? await extensions.findImported(
                { ...context, expandSecretReferences: query.expandSecretReferences },
                secretName,
              )
            : undefined;
        if (imported) return imported;
        throw notFound();
      }
      const tags = await tagsOf(row.id);
      const fields = {
        environment: scope.env.slug,
        secretPath: context.secretPath,
        secretName: row.key,
        secretTags: tags.map((t) => t.slug),
      };
      if (!canDescribe(scope.access.ability, fields)) {
        assertCan(scope.access.ability, "describeSecret", "secrets", fields);
      }
      const showValue = context.viewSecretValue && canReadValue(scope.access.ability, fields);
      const key = await keys.keyFor(scope.projectId);
      let secret: SecretDetail;
      if (query.version !== undefined && query.version !== row.version) {
        const old = await findSecretVersion(db, row.id, query.version);
        if (!old) throw notFound();
        secret = versionDetail(old, row, scope, context.secretPath, key, showValue, tags);
      } else {
        secret = detail(row, scope, context.secretPath, key, showValue, tags);
      }
      if (query.expandSecretReferences && showValue && extensions.expandReferences) {
        await extensions.expandReferences(context, [secret]);
      }
      return secret;
    },

    async getById(actor: Actor, secretId: string): Promise<SecretDetail> {
      const notFound = () => new NotFoundError(`Secret with ID '${secretId}' not found`);
      const row = await findSecretById(db, secretId);
      if (!row) throw notFound();
      const access = await projectPermissions.accessFor(actor, row.project_id).catch((error: unknown) => {
        throw error instanceof NotFoundError ? notFound() : error;
      });
      const env = await db
        .selectFrom("project_environments")
        .selectAll()
        .where("id", "=", row.env_id)
        .executeTakeFirstOrThrow();
      const scope: SecretScope = { access, projectId: row.project_id, env, tree: await scopes.treeOf(env.id) };
      const secretPath = scope.tree.pathOf(row.folder_id);
      const tags = await tagsOf(row.id);
      const fields = { environment: env.slug, secretPath, secretName: row.key, secretTags: tags.map((t) => t.slug) };
      if (!canReadValue(access.ability, fields)) assertCan(access.ability, "readValue", "secrets", fields);
      return detail(row, scope, secretPath, await keys.keyFor(row.project_id), true, tags);
    },

    async create(actor: Actor, secretName: string, body: CreateSecretBody): Promise<SecretRecord> {
      const context = await folderContext(actor, body, true);
      const { scope, folder } = context;
      if (body.type === "personal") throw new BadRequestError("Must be user to create personal secret");
      const tags = body.tagIds ? await requireTags(scope.projectId, body.tagIds) : [];
      const fields = {
        environment: scope.env.slug,
        secretPath: context.secretPath,
        secretName,
        secretTags: tags.map((t) => t.slug),
      };
      assertCan(scope.access.ability, "create", "secrets", fields);
      const exists = () => new BadRequestError("Secret already exists");
      if (await findSecretByKey(db, folder.id, secretName)) throw exists();
      const [key, name] = await Promise.all([keys.keyFor(scope.projectId), actorName(actor)]);
      const value = normalizeSecretValue(body.secretValue);
      let row: SecretRow;
      try {
        row = await db.transaction().execute(async (trx) => {
          const write = writeAt(context, trx, key, name);
          const inserted = await insertNewSecret(write, secretName, {
            value,
            comment: body.secretComment,
            skipMultilineEncoding: body.skipMultilineEncoding,
            reminderNote: body.secretReminderNote,
            reminderRepeatDays: body.secretReminderRepeatDays,
            metadata: metadataInput(body),
            tagIds: tags.map((t) => t.id),
          });
          await recordChanges(write, commits, "Secret Created");
          return inserted;
        });
      } catch (error) {
        if (isUniqueViolation(error, dialect)) throw exists();
        throw error;
      }
      const shown = canReadValue(scope.access.ability, fields) ? value : HIDDEN_SECRET_VALUE;
      return record(row, scope, shown, body.secretComment);
    },

    async update(actor: Actor, secretName: string, body: UpdateSecretBody): Promise<Secret> {
      const context = await folderContext(actor, body, true);
      const { scope, folder } = context;
      const ability = scope.access.ability;
      const notFound = () =>
        new NotFoundError(
          body.type === "personal"
            ? `Personal secret with name ${secretName} not found`
            : `Secret with name ${secretName} not found`,
        );
      if (body.type === "personal" && body.newSecretName !== undefined) {
        throw new BadRequestError("Personal secret cannot change the key name");
      }
      const current = await findInFolder(context, secretName, body.type);
      if (!current) throw notFound();
      const oldTags = await tagsOf(current.id);
      const base = { environment: scope.env.slug, secretPath: context.secretPath };
      assertCan(ability, "edit", "secrets", { ...base, secretName, secretTags: oldTags.map((t) => t.slug) });
      const newTags = body.tagIds ? await requireTags(scope.projectId, body.tagIds) : oldTags;
      const newName = body.newSecretName ?? current.key;
      const fields = { ...base, secretName: newName, secretTags: newTags.map((t) => t.slug) };
      if (body.tagIds || newName !== current.key) assertCan(ability, "edit", "secrets", fields);
      const renamed = () => new BadRequestError("Secret with the new name already exists");
      if (newName !== current.key && (await findSecretByKey(db, folder.id, newName))) throw renamed();

      const [key, name] = await Promise.all([keys.keyFor(scope.projectId), actorName(actor)]);
      const value = body.secretValue === undefined ? undefined : normalizeSecretValue(body.secretValue);
      let updated: SecretRow | undefined;
      try {
        updated = await db.transaction().execute(async (trx) => {
          const write = writeAt(context, trx, key, name);
          const row = await changeSecret(write, current, {
            newName,
            value,
            comment: body.secretComment,
            skipMultilineEncoding: body.skipMultilineEncoding,
            reminderNote: body.secretReminderNote,
            reminderRepeatDays: body.secretReminderRepeatDays,
            reminderRecipients: body.secretReminderRecipients,
            metadata: metadataInput(body),
            tagIds: body.tagIds ? newTags.map((t) => t.id) : undefined,
          });
          if (row && newName !== current.key) {
            await rewriteReferences(write, [{ id: row.id, from: current.key, to: newName }]);
          }
          await recordChanges(write, commits, "Secret Updated");
          return row;
        });
      } catch (error) {
        if (isUniqueViolation(error, dialect)) throw renamed();
        throw error;
      }
      if (!updated) throw notFound();
      const readable = canReadValue(ability, fields);
      // Infisical answers with what was sent: the new value and comment, "" for those not given.
      return {
        ...record(updated, scope, readable ? (value ?? "") : HIDDEN_SECRET_VALUE, body.secretComment ?? ""),
        secretValueHidden: !readable,
      };
    },

    async delete(actor: Actor, secretName: string, body: DeleteSecretBody): Promise<Secret> {
      const context = await folderContext(actor, body, true);
      const { scope } = context;
      const current = await findInFolder(context, secretName, body.type);
      if (!current) throw new NotFoundError("Secret not found");
      const tags = await tagsOf(current.id);
      const fields = {
        environment: scope.env.slug,
        secretPath: context.secretPath,
        secretName,
        secretTags: tags.map((t) => t.slug),
      };
      assertCan(scope.access.ability, "delete", "secrets", fields);
      const readable = canReadValue(scope.access.ability, fields);
      const key = await keys.keyFor(scope.projectId);
      const value = readable
        ? decryptField(key, current.value_ciphertext, bind("secrets", current.id, VALUE))
        : HIDDEN_SECRET_VALUE;
      const comment = decryptField(key, current.comment_ciphertext, bind("secrets", current.id, COMMENT));
      await db.transaction().execute(async (trx) => {
        await deleteSecretRow(trx, current.id);
        await commits.record(trx, change(context, "Secret Deleted"));
      });
      const { isRotatedSecret: _rotated, rotationId: _rotation, ...deleted } = record(current, scope, value, comment);
      return { ...deleted, secretValueHidden: !readable };
    },

    async versions(actor: Actor, secretId: string, page: { offset: number; limit: number }): Promise<SecretVersion[]> {
      const notFound = () => new NotFoundError(`Secret with ID '${secretId}' not found`);
      const secret = await findSecretById(db, secretId);
      if (!secret) throw notFound();
      const access = await projectPermissions.accessFor(actor, secret.project_id).catch((error: unknown) => {
        throw error instanceof NotFoundError ? notFound() : error;
      });
      if (access.ability.cannot("read", "secret-rollback") && access.ability.cannot("read", "commits")) {
        throw new PermissionDeniedError("You do not have permission to read secret versions");
      }
      const env = await db
        .selectFrom("project_environments")
        .select("slug")
        .where("id", "=", secret.env_id)
        .executeTakeFirstOrThrow();
      const tree = await scopes.treeOf(secret.env_id);
      const tags = (await tagsOf(secret.id)).map((t) => t.slug);
      const readable = canReadValue(access.ability, {
        environment: env.slug,
        secretPath: tree.pathOf(secret.folder_id),
        secretName: secret.key,
        secretTags: tags,
      });
      const key = await keys.keyFor(secret.project_id);
      return (await listSecretVersions(db, secretId, page)).map((v) => ({
        id: v.id,
        _id: v.id,
        workspace: v.project_id,
        environment: env.slug,
        version: v.version,
        type: v.type,
        secretKey: v.key,
        secretValue: readable
          ? decryptField(key, v.value_ciphertext, bind("secret_versions", v.id, VALUE))
          : HIDDEN_SECRET_VALUE,
        secretComment: decryptField(key, v.comment_ciphertext, bind("secret_versions", v.id, COMMENT)),
        secretReminderNote: v.reminder_note,
        secretReminderRepeatDays: v.reminder_repeat_days,
        skipMultilineEncoding: v.skip_multiline_encoding === 1,
        createdAt: toIso(v.created_at),
        updatedAt: toIso(v.created_at),
        actor: {
          actorId: v.actor_id,
          actorType: v.actor_type,
          name: v.actor_name,
          membershipId: v.actor_membership_id,
          groupId: null,
        },
        secretValueHidden: !readable,
      }));
    },
  };
}

export type SecretService = ReturnType<typeof createSecretService>;
