import { randomUUID } from "node:crypto";
import type {
  CreateSecretImportBodySchema,
  DeleteSecretImportBodySchema,
  ImportedFolder,
  ListSecretImportsQuerySchema,
  SecretImport,
  UpdateSecretImportBodySchema,
} from "@keyhold/contract";
import type { Kysely, Transaction } from "kysely";
import type { z } from "zod";
import { FolderTree, findEnvironmentBySlug } from "../data/secret-folders.ts";
import {
  closePositionGaps,
  deleteSecretImportRow,
  findFolderImport,
  insertSecretImport,
  listFolderImports,
  listProjectFolders,
  listProjectImports,
  lockFolderImports,
  maxImportPosition,
  type SecretImportWithEnv,
  shiftImportPositions,
  updateSecretImportRow,
} from "../data/secret-imports.ts";
import type { Dialect } from "../db/database.ts";
import type { Database, ProjectEnvironmentRow } from "../db/schema.ts";
import { nowIso, toIso, toIsoOrNull } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import type { FolderCommits } from "./folder-commits.ts";
import { BadRequestError, NotFoundError, PermissionDeniedError } from "./errors.ts";
import { assertCan, canDescribe, type ProjectPermissions, rulesAbout } from "./project-permissions.ts";
import { type FolderPlace, findImportCycle, positionShift } from "./secret-import-graph.ts";
import { type FolderSecretsReader, resolveImports, toImportedFolder } from "./secret-import-resolution.ts";

type FolderInput = z.output<typeof ListSecretImportsQuerySchema>;
type CreateInput = z.output<typeof CreateSecretImportBodySchema>;
type UpdateInput = z.output<typeof UpdateSecretImportBodySchema>;
type DeleteInput = z.output<typeof DeleteSecretImportBodySchema>;

/** What an import that asks for replication says: it is stored, and nothing is replicated. */
export const REPLICATION_NOT_DONE_STATUS =
  "Not replicated: this service stores the replication flag but reads imported secrets in place.";

/** Finds folders by environment and path (the root exists once asked for). */
export interface FolderLookup {
  find(envId: string, secretPath: string): Promise<{ id: string } | undefined>;
}

export interface SecretImportServiceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  projectPermissions: ProjectPermissions;
  folders: FolderLookup;
  /** The secrets core's permission-filtered read of one folder (what an import provides). */
  readFolder: FolderSecretsReader;
  /** Point-in-time recovery: an import added, changed or removed is a change of its folder. */
  commits: Pick<FolderCommits, "record">;
}

export function toSecretImport(row: SecretImportWithEnv): SecretImport {
  return {
    id: row.id,
    version: row.version,
    importPath: row.import_path,
    position: row.position,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    folderId: row.folder_id,
    isReplication: row.is_replication === 1,
    isReplicationSuccess: row.is_replication_success === null ? null : row.is_replication_success === 1,
    replicationStatus: row.replication_status,
    lastReplicated: toIsoOrNull(row.last_replicated),
    isReserved: row.is_reserved === 1,
    importEnv: { name: row.env_name, slug: row.env_slug, id: row.import_env_id },
  };
}

/**
 * A folder's imports of other folders' secrets: 1-based positions without gaps (a move shifts those
 * in between, a delete closes the gap), and no import that would make a folder read itself, directly
 * or through others.
 */
export function createSecretImportService({
  db,
  dialect,
  projectPermissions,
  folders,
  readFolder,
  commits,
}: SecretImportServiceDeps) {
  const record = (
    trx: Transaction<Database>,
    actor: Actor,
    where: { projectId: string; envId: string; folderId: string },
    message: string,
  ) => commits.record(trx, { ...where, actor, message });

  async function requireEnvironment(projectId: string, slug: string): Promise<ProjectEnvironmentRow> {
    const env = await findEnvironmentBySlug(db, projectId, slug);
    if (!env) throw new NotFoundError(`Environment with slug '${slug}' in project with ID '${projectId}' not found`);
    return env;
  }

  /** The importing folder: its environment must exist (404), and the folder too (404). */
  async function requireFolder(input: FolderInput) {
    const env = await requireEnvironment(input.workspaceId, input.environment);
    const folder = await folders.find(env.id, input.path);
    if (!folder) {
      throw new NotFoundError(
        `Folder with path '${input.path}' in environment with slug '${input.environment}' not found`,
      );
    }
    return { env, folderId: folder.id };
  }

  /** Importing means listing the source's secrets: describe permission there is needed. */
  async function assertCanDescribeSource(actor: Actor, projectId: string, environment: string, secretPath: string) {
    const ability = await projectPermissions.abilityFor(actor, projectId);
    if (!canDescribe(ability, { environment, secretPath })) {
      throw new PermissionDeniedError(
        "You are not allowed to describeSecret on secrets",
        rulesAbout(ability, "secrets"),
      );
    }
  }

  /** Refuses an import of `source` into the folder at `destination` that would close a cycle. */
  async function assertNoCycle(
    projectId: string,
    destination: FolderPlace,
    source: FolderPlace,
    envSlugs: Map<string, string>,
  ) {
    const [folderRows, importRows] = await Promise.all([
      listProjectFolders(db, projectId),
      listProjectImports(db, projectId),
    ]);
    const byId = new Map(folderRows.map((f) => [f.id, f]));
    const trees = new Map<string, FolderTree>();
    for (const envId of new Set(folderRows.map((f) => f.env_id))) {
      trees.set(envId, new FolderTree(folderRows.filter((f) => f.env_id === envId)));
    }
    const edges = importRows.flatMap((row) => {
      const folder = byId.get(row.folder_id);
      const tree = folder && trees.get(folder.env_id);
      if (!folder || !tree) return [];
      return [
        {
          from: { envId: folder.env_id, path: tree.pathOf(folder.id) },
          to: { envId: row.import_env_id, path: row.import_path },
        },
      ];
    });
    const cycle = findImportCycle(edges, destination, source);
    if (cycle) {
      const name = (p: FolderPlace) => `${envSlugs.get(p.envId) ?? p.envId}:${p.path}`;
      throw new BadRequestError(
        `Cyclic import not allowed: importing ${name(source)} into ${name(destination)} would make it import itself (${cycle.map(name).join(" → ")})`,
      );
    }
  }

  async function envSlugsOf(projectId: string): Promise<Map<string, string>> {
    const rows = await db
      .selectFrom("project_environments")
      .select(["id", "slug"])
      .where("project_id", "=", projectId)
      .execute();
    return new Map(rows.map((r) => [r.id, r.slug]));
  }

  async function requireImport(folderId: string, importId: string): Promise<SecretImportWithEnv> {
    const row = await findFolderImport(db, folderId, importId);
    if (!row) throw new NotFoundError(`Secret import with ID '${importId}' not found`);
    return row;
  }

  return {
    async list(actor: Actor, input: FolderInput): Promise<SecretImport[]> {
      await projectPermissions.assert(actor, input.workspaceId, "read", "secret-imports", {
        environment: input.environment,
        secretPath: input.path,
      });
      const { folderId } = await requireFolder(input);
      const rows = await listFolderImports(db, folderId);
      if (rows.some((row, index) => row.position !== index + 1)) {
        await db.transaction().execute(async (trx) => {
          await lockFolderImports(trx, dialect, folderId);
          await closePositionGaps(trx, folderId, nowIso());
        });
        return (await listFolderImports(db, folderId)).map(toSecretImport);
      }
      return rows.map(toSecretImport);
    },

    /** What each of the folder's imports provides, for the caller (secrets it may not see left out). */
    async listSecrets(actor: Actor, input: FolderInput): Promise<ImportedFolder[]> {
      const access = await projectPermissions.accessFor(actor, input.workspaceId);
      assertCan(access.ability, "read", "secret-imports", { environment: input.environment, secretPath: input.path });
      const { env, folderId } = await requireFolder(input);
      const sources = await resolveImports(
        { db, folders, readFolder },
        { actor, access, folderId, envId: env.id, secretPath: input.path, viewSecretValue: true },
      );
      return sources.map(toImportedFolder);
    },

    async create(actor: Actor, input: CreateInput): Promise<SecretImport> {
      const projectId = input.workspaceId;
      await projectPermissions.assert(actor, projectId, "create", "secret-imports", {
        environment: input.environment,
        secretPath: input.path,
      });
      await assertCanDescribeSource(actor, projectId, input.import.environment, input.import.path);
      const { env, folderId } = await requireFolder(input);
      const sourceEnv = await requireEnvironment(projectId, input.import.environment);
      const destination = { envId: env.id, path: input.path };
      const source = { envId: sourceEnv.id, path: input.import.path };
      const existing = await listFolderImports(db, folderId);
      if (existing.some((i) => i.import_env_id === sourceEnv.id && i.import_path === input.import.path)) {
        throw new BadRequestError(
          `This folder already imports the secrets of '${input.import.path}' in environment '${sourceEnv.slug}'`,
        );
      }
      await assertNoCycle(projectId, destination, source, await envSlugsOf(projectId));
      const id = randomUUID();
      const now = nowIso();
      await db.transaction().execute(async (trx) => {
        await lockFolderImports(trx, dialect, folderId);
        await closePositionGaps(trx, folderId, now);
        await insertSecretImport(trx, {
          id,
          folder_id: folderId,
          import_env_id: sourceEnv.id,
          import_path: input.import.path,
          position: (await maxImportPosition(trx, folderId)) + 1,
          is_replication: input.isReplication ? 1 : 0,
          is_replication_success: input.isReplication ? 0 : null,
          replication_status: input.isReplication ? REPLICATION_NOT_DONE_STATUS : null,
          last_replicated: null,
          created_at: now,
          updated_at: now,
        });
        await record(trx, actor, { projectId, envId: env.id, folderId }, "Secret Import Created");
      });
      return toSecretImport(await requireImport(folderId, id));
    },

    async update(actor: Actor, importId: string, input: UpdateInput): Promise<SecretImport> {
      const projectId = input.workspaceId;
      await projectPermissions.assert(actor, projectId, "edit", "secret-imports", {
        environment: input.environment,
        secretPath: input.path,
      });
      const { env, folderId } = await requireFolder(input);
      const current = await findFolderImport(db, folderId, importId);
      if (!current) throw new BadRequestError("Secret import not found");
      const { environment, path, position } = input.import;
      let sourceEnvId = current.import_env_id;
      if (environment !== undefined || path !== undefined) {
        const sourceEnv = environment === undefined ? undefined : await requireEnvironment(projectId, environment);
        sourceEnvId = sourceEnv?.id ?? current.import_env_id;
        const sourcePath = path ?? current.import_path;
        await assertCanDescribeSource(actor, projectId, sourceEnv?.slug ?? current.env_slug, sourcePath);
        await assertNoCycle(
          projectId,
          { envId: env.id, path: input.path },
          { envId: sourceEnvId, path: sourcePath },
          await envSlugsOf(projectId),
        );
      }
      const now = nowIso();
      await db.transaction().execute(async (trx) => {
        await lockFolderImports(trx, dialect, folderId);
        await closePositionGaps(trx, folderId, now);
        let target: number | undefined;
        if (position !== undefined) {
          // Read again under the lock: another move may have happened since.
          const fresh = await findFolderImport(trx, folderId, importId);
          if (!fresh) throw new BadRequestError("Secret import not found");
          target = Math.min(position, await maxImportPosition(trx, folderId));
          const shift = positionShift(fresh.position, target);
          if (shift) await shiftImportPositions(trx, folderId, shift.lower, shift.upper, shift.by, now);
        }
        await updateSecretImportRow(trx, importId, {
          import_env_id: sourceEnvId,
          ...(path !== undefined && { import_path: path }),
          ...(target !== undefined && { position: target }),
          updated_at: now,
        });
        await record(trx, actor, { projectId, envId: env.id, folderId }, "Secret Import Updated");
      });
      return toSecretImport(await requireImport(folderId, importId));
    },

    async delete(actor: Actor, importId: string, input: DeleteInput): Promise<SecretImport> {
      await projectPermissions.assert(actor, input.workspaceId, "delete", "secret-imports", {
        environment: input.environment,
        secretPath: input.path,
      });
      const { env, folderId } = await requireFolder(input);
      const row = await requireImport(folderId, importId);
      await db.transaction().execute(async (trx) => {
        await lockFolderImports(trx, dialect, folderId);
        await closePositionGaps(trx, folderId, nowIso());
        const fresh = await findFolderImport(trx, folderId, importId);
        if (!fresh) return;
        await deleteSecretImportRow(trx, importId);
        const last = await maxImportPosition(trx, folderId);
        await shiftImportPositions(trx, folderId, fresh.position + 1, last, -1, nowIso());
        await record(trx, actor, { projectId: input.workspaceId, envId: env.id, folderId }, "Secret Import Deleted");
      });
      return toSecretImport(row);
    },
  };
}

export type SecretImportService = ReturnType<typeof createSecretImportService>;
