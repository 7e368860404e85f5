import {
  type CommitChange,
  type CommitSecretVersion,
  type CompareChange,
  type CompareFolder,
  type FolderStateItem,
  HIDDEN_SECRET_VALUE,
  type SecretSnapshot,
  type SecretSnapshotDetail,
} from "@keyhold/contract";
import type { Kysely } from "kysely";
import {
  type CommitListing,
  commitAtOrBefore,
  EMPTY_STATE,
  type FolderState,
  findCommit,
  findVersions,
  listCommits,
  parseState,
  previousCommit,
  readFolderState,
} from "../data/folder-commits.ts";
import type { FolderTree } from "../data/secret-folders.ts";
import type { Database } from "../db/schema.ts";
import type { FolderCommitRow, SecretVersionRow } from "../db/schema-secrets.ts";
import { toIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { NotFoundError } from "./errors.ts";
import { commitView, type FolderCommits } from "./folder-commits.ts";
import { assertCan, canReadValue, type ProjectAbility, type ProjectPermissions } from "./project-permissions.ts";
import { decryptField, fieldBinding, isEmptyField, type ProjectKeys } from "./secret-crypto.ts";
import { folderNotFound, type SecretScopes } from "./secret-scope.ts";

type SecretEntry = FolderState["secrets"][number];

/** What changed between two states of a folder, item by item. */
interface StateChange {
  type: "secret" | "folder" | "import";
  changeType: "add" | "update" | "delete";
  id: string;
  before?: SecretEntry | undefined;
  after?: SecretEntry | undefined;
  folderName?: string | undefined;
  importEnv?: string | undefined;
  importPath?: string | undefined;
}

function diffStates(from: FolderState, to: FolderState): StateChange[] {
  const out: StateChange[] = [];
  const before = new Map(from.secrets.map((s) => [s.id, s]));
  const after = new Map(to.secrets.map((s) => [s.id, s]));
  for (const s of to.secrets) {
    const b = before.get(s.id);
    if (!b) out.push({ type: "secret", changeType: "add", id: s.id, after: s });
    else if (b.version !== s.version || b.tags.join() !== s.tags.join()) {
      out.push({ type: "secret", changeType: "update", id: s.id, before: b, after: s });
    }
  }
  for (const s of from.secrets) {
    if (!after.has(s.id)) out.push({ type: "secret", changeType: "delete", id: s.id, before: s });
  }
  const foldersBefore = new Map(from.folders.map((f) => [f.id, f]));
  const foldersAfter = new Map(to.folders.map((f) => [f.id, f]));
  for (const f of to.folders) {
    const b = foldersBefore.get(f.id);
    if (!b) out.push({ type: "folder", changeType: "add", id: f.id, folderName: f.name });
    else if (b.name !== f.name || b.description !== f.description) {
      out.push({ type: "folder", changeType: "update", id: f.id, folderName: f.name });
    }
  }
  for (const f of from.folders) {
    if (!foldersAfter.has(f.id)) out.push({ type: "folder", changeType: "delete", id: f.id, folderName: f.name });
  }
  const sig = (i: FolderState["imports"][number]) => `${i.envId}|${i.path}|${i.position}|${i.isReplication}`;
  const importsBefore = new Map(from.imports.map((i) => [i.id, i]));
  const importsAfter = new Map(to.imports.map((i) => [i.id, i]));
  for (const i of to.imports) {
    const b = importsBefore.get(i.id);
    if (!b || sig(b) !== sig(i)) {
      out.push({ type: "import", changeType: b ? "update" : "add", id: i.id, importEnv: i.envId, importPath: i.path });
    }
  }
  for (const i of from.imports) {
    if (!importsAfter.has(i.id)) {
      out.push({ type: "import", changeType: "delete", id: i.id, importEnv: i.envId, importPath: i.path });
    }
  }
  return out;
}

/** `current` with one commit's changes (`from` → `to`) undone. */
function undo(current: FolderState, from: FolderState, to: FolderState): FolderState {
  const secrets = new Map(current.secrets.map((s) => [s.id, s]));
  const folders = new Map(current.folders.map((f) => [f.id, f]));
  const imports = new Map(current.imports.map((i) => [i.id, i]));
  const fromSecrets = new Map(from.secrets.map((s) => [s.id, s]));
  const fromFolders = new Map(from.folders.map((f) => [f.id, f]));
  const fromImports = new Map(from.imports.map((i) => [i.id, i]));
  for (const change of diffStates(from, to)) {
    const map = change.type === "secret" ? secrets : change.type === "folder" ? folders : imports;
    const old = (change.type === "secret" ? fromSecrets : change.type === "folder" ? fromFolders : fromImports).get(
      change.id,
    );
    if (change.changeType === "add") map.delete(change.id);
    else if (old) (map as Map<string, typeof old>).set(change.id, old);
  }
  return {
    secrets: [...secrets.values()].sort((a, b) => (a.key < b.key ? -1 : 1)),
    folders: [...folders.values()],
    imports: [...imports.values()].sort((a, b) => a.position - b.position),
  };
}

export interface SecretSnapshotServiceDeps {
  db: Kysely<Database>;
  projectPermissions: ProjectPermissions;
  scopes: SecretScopes;
  keys: ProjectKeys;
  commits: FolderCommits;
}

/**
 * Both generations of Infisical's point-in-time recovery over the same commits: the 2024
 * snapshots and the 2026 `/api/v1/pit` commits. Identities are served on both (the recorded 2026
 * server takes user sessions only on the commit routes). Reading history needs `secret-rollback`
 * read (or the newer `commits` read); rolling back needs `secret-rollback` create (or `commits`
 * perform-rollback); values show only where the caller may read them.
 */
export function createSecretSnapshotService({
  db,
  projectPermissions,
  scopes,
  keys,
  commits,
}: SecretSnapshotServiceDeps) {
  function assertRead(ability: ProjectAbility): void {
    if (ability.cannot("read", "secret-rollback") && ability.cannot("read", "commits")) {
      assertCan(ability, "read", "secret-rollback");
    }
  }

  function assertRollback(ability: ProjectAbility): void {
    if (ability.cannot("create", "secret-rollback") && ability.cannot("perform-rollback", "commits")) {
      assertCan(ability, "create", "secret-rollback");
    }
  }

  /** The folder at `path` in an environment, with the caller's access (404 project/environment/folder). */
  async function openFolder(actor: Actor, projectId: string, environment: string, path: string) {
    const scope = await scopes.open(actor, { workspaceId: projectId }, environment);
    const folder = scope.tree.at(path);
    if (!folder) throw folderNotFound(path, environment);
    return { ...scope, folder };
  }

  /** A commit the caller may see, in the project named (when one is): 404 for any other. */
  async function openCommit(actor: Actor, commitId: string, notFound: () => Error, projectId?: string) {
    const commit = await findCommit(db, commitId);
    if (!commit || (projectId !== undefined && commit.project_id !== projectId)) throw notFound();
    const access = await projectPermissions.accessFor(actor, commit.project_id).catch((error: unknown) => {
      throw error instanceof NotFoundError ? notFound() : error;
    });
    const env = await db
      .selectFrom("project_environments")
      .selectAll()
      .where("id", "=", commit.env_id)
      .executeTakeFirstOrThrow();
    return { commit, access, env, tree: await scopes.treeOf(env.id) };
  }

  const snapshotView = (row: CommitListing): SecretSnapshot => ({
    id: row.id,
    envId: row.env_id,
    folderId: row.folder_id,
    parentFolderId: row.parent_folder_id,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.created_at),
  });

  /** Decrypts versions for the caller: values only where it may read that secret at that path. */
  async function contentReader(
    projectId: string,
    ability: ProjectAbility,
    envSlug: string,
    tree: FolderTree,
    viewSecretValue = true,
  ) {
    const [key, tags] = await Promise.all([
      keys.keyFor(projectId),
      db.selectFrom("secret_tags").select(["id", "slug", "color"]).where("project_id", "=", projectId).execute(),
    ]);
    const tagById = new Map(tags.map((t) => [t.id, t]));
    const slugsOf = (ids: string[]) => ids.flatMap((id) => tagById.get(id)?.slug ?? []);
    return {
      tagById,
      slugsOf,
      readable(folderId: string, entry: SecretEntry): boolean {
        if (!viewSecretValue || !tree.byId.has(folderId)) return false;
        return canReadValue(ability, {
          environment: envSlug,
          secretPath: tree.pathOf(folderId),
          secretName: entry.key,
          secretTags: slugsOf(entry.tags),
        });
      },
      value(version: SecretVersionRow, readable: boolean): string {
        if (!readable) return HIDDEN_SECRET_VALUE;
        return decryptField(
          key,
          version.value_ciphertext,
          fieldBinding("secret_versions", version.id, "value_ciphertext"),
        );
      },
      comment(version: SecretVersionRow): string {
        return isEmptyField(version.comment_ciphertext)
          ? ""
          : decryptField(
              key,
              version.comment_ciphertext,
              fieldBinding("secret_versions", version.id, "comment_ciphertext"),
            );
      },
    };
  }
  type ContentReader = Awaited<ReturnType<typeof contentReader>>;

  function commitContent(
    reader: ContentReader,
    folderId: string,
    entry: SecretEntry,
    version: SecretVersionRow | undefined,
  ): CommitSecretVersion {
    const readable = reader.readable(folderId, entry);
    return {
      secretKey: entry.key,
      secretComment: version ? reader.comment(version) : "",
      skipMultilineEncoding: version ? version.skip_multiline_encoding === 1 : false,
      tags: reader.slugsOf(entry.tags),
      metadata: version?.metadata ? (JSON.parse(version.metadata) as { key: string; value: string }[]) : [],
      secretValue: version ? reader.value(version, readable) : HIDDEN_SECRET_VALUE,
      isRedacted: !readable,
      redactedAt: null,
      redactedByUserId: null,
    };
  }

  /** Versions named by any secret entry of these changes. */
  async function versionsOf(changes: StateChange[]) {
    const wanted = changes.flatMap((c) => [c.before, c.after].filter((e): e is SecretEntry => e !== undefined));
    return findVersions(db, wanted);
  }

  async function compareFolder(
    reader: ContentReader,
    folder: { id: string; name: string; path: string },
    current: FolderState,
    target: FolderState,
    commitSeq: string,
  ): Promise<CompareFolder> {
    const changes = diffStates(current, target);
    const versions = await versionsOf(changes);
    const at = (e: SecretEntry | undefined) => (e ? versions.get(`${e.id}:${e.version}`) : undefined);
    return {
      folderId: folder.id,
      folderName: folder.name,
      folderPath: folder.path,
      changes: changes.map((c): CompareChange => {
        if (c.type !== "secret") {
          return {
            id: c.id,
            versionId: c.id,
            changeType: c.changeType,
            commitId: commitSeq,
            type: c.type,
            ...(c.folderName !== undefined && { folderName: c.folderName }),
            ...(c.importPath !== undefined && { importPath: c.importPath }),
            ...(c.importEnv !== undefined && { importEnv: c.importEnv }),
          };
        }
        const entry = (c.after ?? c.before) as SecretEntry;
        const now = at(c.before);
        const then = at(c.after);
        const shown = c.changeType === "delete" ? now : then;
        const versionsShown =
          c.changeType === "update"
            ? [
                commitContent(reader, folder.id, c.before as SecretEntry, now),
                commitContent(reader, folder.id, entry, then),
              ]
            : [commitContent(reader, folder.id, entry, shown)];
        return {
          id: c.id,
          versionId: shown?.id ?? c.id,
          changeType: c.changeType,
          commitId: commitSeq,
          // As the recorded server: the version number moved from on an update, the version id on a delete.
          fromVersion: c.changeType === "update" ? (c.before?.version ?? 0) : (now?.id ?? c.id),
          type: "secret",
          secretKey: entry.key,
          secretVersion: c.changeType === "update" ? String(entry.version) : entry.version,
          secretId: c.id,
          versions: versionsShown,
        };
      }),
    };
  }

  /** The folder's listed history needs read access; the folder is named by environment and path. */
  async function historyOf(actor: Actor, projectId: string, environment: string, path: string) {
    const opened = await openFolder(actor, projectId, environment, path);
    assertRead(opened.access.ability);
    return opened;
  }

  const snapshotNotFound = () => new NotFoundError("Snapshot not found");
  const commitNotFound = (id: string) => () => new NotFoundError(`Commit with ID '${id}' not found`);

  /** Rolls the commit's folder back to it; the folder must still exist (its parent's rollback brings it back). */
  async function rollBackTo(
    actor: Actor,
    opened: Awaited<ReturnType<typeof openCommit>>,
    options: { message: string; deep: boolean; target?: FolderState; at?: Date | string },
  ) {
    assertRollback(opened.access.ability);
    const { commit } = opened;
    if (!opened.tree.byId.has(commit.folder_id)) {
      throw new NotFoundError(`Folder with ID '${commit.folder_id}' not found`);
    }
    return commits.rollback(
      { projectId: commit.project_id, envId: commit.env_id, folderId: commit.folder_id },
      options.target ?? parseState(commit),
      { actor, message: options.message, at: options.at ?? commit.created_at, deep: options.deep },
    );
  }

  return {
    // ---- October 2024 snapshots ----

    async listSnapshots(
      actor: Actor,
      projectId: string,
      query: { environment: string; path: string; offset: number; limit: number },
    ): Promise<SecretSnapshot[]> {
      const { folder } = await historyOf(actor, projectId, query.environment, query.path);
      const { rows } = await listCommits(db, folder.id, { ...query, sort: "desc" });
      return rows.map(snapshotView);
    },

    async countSnapshots(actor: Actor, projectId: string, query: { environment: string; path: string }) {
      const { folder } = await historyOf(actor, projectId, query.environment, query.path);
      return (await listCommits(db, folder.id, { offset: 0, limit: 1, sort: "desc" })).total;
    },

    async getSnapshot(actor: Actor, snapshotId: string): Promise<SecretSnapshotDetail> {
      const opened = await openCommit(actor, snapshotId, snapshotNotFound);
      assertRead(opened.access.ability);
      const { commit, env, tree } = opened;
      const state = parseState(commit);
      const reader = await contentReader(commit.project_id, opened.access.ability, env.slug, tree);
      const versions = await findVersions(db, state.secrets);
      return {
        id: commit.id,
        projectId: commit.project_id,
        environment: { id: env.id, slug: env.slug, name: env.name },
        secretVersions: state.secrets.flatMap((s) => {
          const v = versions.get(`${s.id}:${s.version}`);
          if (!v) return [];
          const readable = reader.readable(commit.folder_id, s);
          return [
            {
              id: v.id,
              version: v.version,
              secretKey: v.key,
              secretValue: reader.value(v, readable),
              secretComment: reader.comment(v),
              skipMultilineEncoding: v.skip_multiline_encoding === 1,
              createdAt: toIso(v.created_at),
              updatedAt: toIso(v.created_at),
              isRotatedSecret: false,
              rotationId: null,
              secretValueHidden: !readable,
              secretId: s.id,
              tags: s.tags.flatMap((id) => {
                const t = reader.tagById.get(id);
                return t ? [{ id: t.id, slug: t.slug, color: t.color, name: t.slug }] : [];
              }),
            },
          ];
        }),
        folderVersion: state.folders.map((f) => ({ id: f.id, name: f.name })),
        createdAt: toIso(commit.created_at),
        updatedAt: toIso(commit.created_at),
      };
    },

    /** The folder, its imports and its sub-folders (recursively) back as the snapshot holds them. */
    async rollbackSnapshot(actor: Actor, snapshotId: string): Promise<SecretSnapshot> {
      const opened = await openCommit(actor, snapshotId, snapshotNotFound);
      const { commitId } = await rollBackTo(actor, opened, {
        message: `Rollback to snapshot ${snapshotId}`,
        deep: true,
      });
      const made = await findCommit(db, commitId);
      if (!made) throw snapshotNotFound();
      return snapshotView(made);
    },

    // ---- mid-2026 commits ----

    async listCommits(
      actor: Actor,
      query: {
        projectId: string;
        environment: string;
        path: string;
        offset: number;
        limit: number;
        search?: string | undefined;
        sort: "asc" | "desc";
      },
    ) {
      const { folder } = await historyOf(actor, query.projectId, query.environment, query.path);
      const { rows, total } = await listCommits(db, folder.id, query);
      return { commits: rows.map(commitView), total, hasMore: query.offset + rows.length < total };
    },

    async countCommits(actor: Actor, query: { projectId: string; environment: string; path: string }) {
      const { folder } = await historyOf(actor, query.projectId, query.environment, query.path);
      const { total } = await listCommits(db, folder.id, { offset: 0, limit: 1, sort: "desc" });
      return { count: total, folderId: folder.id };
    },

    async commitChanges(
      actor: Actor,
      commitId: string,
      query: { projectId: string; viewSecretValue?: boolean | undefined; secretKey?: string | undefined },
    ) {
      const opened = await openCommit(actor, commitId, commitNotFound(commitId), query.projectId);
      assertRead(opened.access.ability);
      const { commit, env, tree } = opened;
      const previous = await previousCommit(db, commit);
      const changes = diffStates(previous ? parseState(previous) : EMPTY_STATE, parseState(commit)).filter(
        (c) => query.secretKey === undefined || (c.after ?? c.before)?.key === query.secretKey,
      );
      const [reader, versions, latest] = await Promise.all([
        contentReader(commit.project_id, opened.access.ability, env.slug, tree, query.viewSecretValue),
        versionsOf(changes),
        listCommits(db, commit.folder_id, { offset: 0, limit: 1, sort: "desc" }),
      ]);
      const view = commitView(commit);
      const common = {
        folderCommitId: commit.id,
        createdAt: view.createdAt,
        updatedAt: view.createdAt,
        actorMetadata: view.actorMetadata,
        actorType: view.actorType,
        message: view.message,
        folderId: commit.folder_id,
      };
      return {
        ...view,
        updatedAt: view.createdAt,
        isLatest: latest.rows[0]?.id === commit.id,
        changes: changes.map((c, index): CommitChange => {
          const base = {
            id: `${commit.id}-${index + 1}`,
            changeType: c.changeType,
            isUpdate: c.changeType === "update",
            resourceType: c.type,
            ...common,
          };
          if (c.type !== "secret") {
            return {
              ...base,
              ...(c.type === "folder" && { folderName: c.folderName, folderChangeId: c.id }),
              ...(c.type === "import" && { importPath: c.importPath, importEnv: c.importEnv }),
            };
          }
          const entry = (c.after ?? c.before) as SecretEntry;
          const version = versions.get(`${entry.id}:${entry.version}`);
          return {
            ...base,
            secretVersionId: version?.id ?? entry.id,
            secretKey: entry.key,
            secretVersion: String(entry.version),
            secretId: entry.id,
            versions: [commitContent(reader, commit.folder_id, entry, version)],
          };
        }),
      };
    },

    async folderState(actor: Actor, commitId: string, query: { projectId: string; folderId: string }) {
      const notFound = commitNotFound(commitId);
      const opened = await openCommit(actor, commitId, notFound, query.projectId);
      if (opened.commit.folder_id !== query.folderId) throw notFound();
      assertRead(opened.access.ability);
      const state = parseState(opened.commit);
      const versions = await findVersions(db, state.secrets);
      return [
        ...state.secrets.map(
          (s): FolderStateItem => ({
            type: "secret",
            id: s.id,
            versionId: versions.get(`${s.id}:${s.version}`)?.id ?? s.id,
            secretKey: s.key,
            secretVersion: s.version,
          }),
        ),
        ...state.folders.map(
          (f): FolderStateItem => ({ type: "folder", id: f.id, versionId: f.id, folderName: f.name }),
        ),
        ...state.imports.map(
          (i): FolderStateItem => ({
            type: "import",
            id: i.id,
            versionId: i.id,
            importEnv: i.envId,
            importPath: i.path,
          }),
        ),
      ];
    },

    /** What a rollback to the commit would change, in the folder and (deep) the sub-folders it keeps. */
    async compare(
      actor: Actor,
      commitId: string,
      query: {
        projectId: string;
        folderId: string;
        deepRollback?: boolean | undefined;
        viewSecretValue?: boolean | undefined;
        secretKey?: string | undefined;
      },
    ): Promise<CompareFolder[]> {
      const notFound = commitNotFound(commitId);
      const opened = await openCommit(actor, commitId, notFound, query.projectId);
      const { commit, env, tree } = opened;
      if (commit.folder_id !== query.folderId) throw notFound();
      assertRead(opened.access.ability);
      const reader = await contentReader(
        commit.project_id,
        opened.access.ability,
        env.slug,
        tree,
        query.viewSecretValue,
      );
      const out: CompareFolder[] = [];
      const visit = async (folderId: string, target: FolderState) => {
        const folder = tree.byId.get(folderId);
        if (!folder) return;
        const current = await readFolderState(db, folderId);
        const name = folder.parent_id === null ? "root" : folder.name;
        const compared = await compareFolder(
          reader,
          { id: folderId, name, path: tree.pathOf(folderId) },
          current,
          target,
          String(commit.seq),
        );
        if (query.secretKey !== undefined) {
          compared.changes = compared.changes.filter((c) => c.secretKey === query.secretKey);
        }
        out.push(compared);
        if (query.deepRollback === false) return;
        const kept = new Set(current.folders.map((f) => f.id));
        for (const child of target.folders) {
          if (!kept.has(child.id)) continue;
          const then: FolderCommitRow | undefined = await commitAtOrBefore(db, child.id, commit.created_at);
          if (then) await visit(child.id, parseState(then));
        }
      };
      await visit(commit.folder_id, parseState(commit));
      return out;
    },

    async revert(actor: Actor, commitId: string, projectId: string) {
      const opened = await openCommit(actor, commitId, commitNotFound(commitId), projectId);
      assertRollback(opened.access.ability);
      const { commit } = opened;
      const previous = await previousCommit(db, commit);
      const before = previous ? parseState(previous) : EMPTY_STATE;
      const current = await readFolderState(db, commit.folder_id);
      const target = undo(current, before, parseState(commit));
      const result = await rollBackTo(actor, opened, {
        message: "Revert commit changes",
        deep: false,
        target,
        at: previous?.created_at ?? commit.created_at,
      });
      return {
        success: true,
        message: "Changes reverted successfully",
        originalCommitId: commit.id,
        revertCommitId: result.commitId,
        changesReverted: result.secretChanges + result.folderChanges,
      };
    },

    async rollbackCommit(
      actor: Actor,
      commitId: string,
      body: { projectId: string; folderId: string; deepRollback: boolean; message?: string | undefined },
    ) {
      const notFound = commitNotFound(commitId);
      const opened = await openCommit(actor, commitId, notFound, body.projectId);
      if (opened.commit.folder_id !== body.folderId) throw notFound();
      const result = await rollBackTo(actor, opened, {
        message: body.message ?? `Rollback to commit ${opened.commit.seq}`,
        deep: body.deepRollback,
      });
      return {
        success: true,
        secretChangesCount: result.secretChanges,
        folderChangesCount: result.folderChanges,
        totalChanges: result.secretChanges + result.folderChanges,
      };
    },
  };
}

export type SecretSnapshotService = ReturnType<typeof createSecretSnapshotService>;
