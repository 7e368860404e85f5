import { randomUUID } from "node:crypto";
import type { Folder, FolderWithPath, folderEndpoints } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import {
  childPath,
  deleteFolderRow,
  type FolderTree,
  findFolderWithEnvironment,
  insertFolder,
  pathSegments,
  renameFolder,
} from "../data/secret-folders.ts";
import { isUniqueViolation } from "../data/secrets.ts";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import type { SecretFolderRow } from "../db/schema-secrets.ts";
import { nowIso, toIso, toIsoOrNull } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { BadRequestError, NotFoundError } from "./errors.ts";
import type { FolderCommits } from "./folder-commits.ts";
import { assertCan, type ProjectPermissions } from "./project-permissions.ts";
import { folderNotFound, type SecretScopes } from "./secret-scope.ts";

type Bodies = { [E in (typeof folderEndpoints)[number] as E["id"]]: E };
type CreateInput = z.output<Bodies["folders.create"]["body"]>;
type ListInput = z.output<Bodies["folders.list"]["query"]>;
type UpdateInput = z.output<Bodies["folders.update"]["body"]>;
type DeleteInput = z.output<Bodies["folders.delete"]["body"]>;

/** A path as sent (`path`, or the CLI's `directory`), normalised: leading "/", no trailing one. */
export function normalizePath(path: string | undefined): string {
  const trimmed = (path ?? "/").trim();
  const rooted = trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
  return rooted.length > 1 ? rooted.replace(/\/+$/, "") || "/" : rooted;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toFolder(row: SecretFolderRow): Folder {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    envId: row.env_id,
    parentId: row.parent_id,
    isReserved: row.is_reserved === 1,
    description: row.description,
    lastSecretModified: toIsoOrNull(row.last_secret_modified),
  };
}

export interface FolderServiceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  projectPermissions: ProjectPermissions;
  scopes: SecretScopes;
  /** Point-in-time recovery: a folder created, renamed or deleted is a change of its parent. */
  commits: Pick<FolderCommits, "record">;
}

/** Folders, so that `secretPath` is real: a tree per environment under its root "/". */
export function createFolderService({ db, dialect, projectPermissions, scopes, commits }: FolderServiceDeps) {
  const missing = "Missing workspace id or environment";

  async function withPath(folderId: string): Promise<FolderWithPath> {
    const row = await findFolderWithEnvironment(db, folderId);
    if (!row) throw new NotFoundError(`Folder with ID '${folderId}' not found`);
    const tree = await scopes.treeOf(row.env_id);
    return { ...toFolder(row), path: tree.pathOf(row.id) };
  }

  /** The folder named `idOrName` under `parent`, or (a uuid) the folder with that id in the environment. */
  function target(tree: FolderTree, parent: SecretFolderRow, idOrName: string): SecretFolderRow | undefined {
    const byName = tree.childrenOf(parent.id).find((f) => f.name === idOrName);
    if (byName) return byName;
    if (!UUID.test(idOrName)) return undefined;
    const byId = tree.byId.get(idOrName);
    return byId && byId.parent_id !== null && byId.is_reserved !== 1 ? byId : undefined;
  }

  return {
    async create(actor: Actor, input: CreateInput): Promise<FolderWithPath> {
      const parentPath = normalizePath(input.path ?? input.directory);
      const scope = await scopes.open(actor, { workspaceId: input.workspaceId }, input.environment, missing);
      assertCan(scope.access.ability, "create", "secret-folders", {
        environment: scope.env.slug,
        secretPath: parentPath,
      });
      const path = childPath(parentPath, input.name);
      if (scope.tree.at(path)) {
        throw new BadRequestError(`Folder with name '${input.name}' already exists in path '${parentPath}'`);
      }
      // Missing folders on the way are made too, as Infisical does.
      const now = nowIso();
      let parent = scope.tree.at("/") as SecretFolderRow;
      let created = "";
      let walked = "";
      const changed: string[] = [];
      try {
        await db.transaction().execute(async (trx) => {
          for (const name of [...pathSegments(parentPath), input.name]) {
            walked = childPath(walked || "/", name);
            const existing = scope.tree.at(walked);
            if (existing) {
              parent = existing;
              continue;
            }
            const id = randomUUID();
            const isLeaf = walked === path;
            await insertFolder(trx, {
              id,
              envId: scope.env.id,
              parentId: parent.id,
              name,
              description: isLeaf ? (input.description ?? null) : null,
              now,
            });
            changed.push(parent.id, id);
            parent = { ...parent, id };
            created = id;
          }
          // The parent that got a new folder, each folder made on the way, and the new one (empty).
          for (const folderId of new Set(changed)) {
            await commits.record(trx, {
              projectId: scope.projectId,
              envId: scope.env.id,
              folderId,
              actor,
              message: "Folder Created",
            });
          }
        });
      } catch (error) {
        if (isUniqueViolation(error, dialect)) {
          throw new BadRequestError(`Folder with name '${input.name}' already exists in path '${parentPath}'`);
        }
        throw error;
      }
      return withPath(created);
    },

    async list(actor: Actor, input: ListInput) {
      const path = normalizePath(input.path ?? input.directory);
      // Any member may list folders (Infisical checks membership only).
      const scope = await scopes.open(actor, { workspaceId: input.workspaceId }, input.environment, missing);
      const folder = scope.tree.at(path);
      if (!folder) return [];
      if (!input.recursive) {
        return scope.tree
          .childrenOf(folder.id)
          .filter((f) => f.is_reserved !== 1)
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
          .map(toFolder);
      }
      const base = path === "/" ? "" : path;
      return scope.tree
        .descendantsOf(folder.id)
        .filter((f) => f.is_reserved !== 1)
        .map((f) => ({ ...toFolder(f), relativePath: scope.tree.pathOf(f.id).slice(base.length) }));
    },

    async get(actor: Actor, folderId: string) {
      const row = await findFolderWithEnvironment(db, folderId);
      if (!row) throw new NotFoundError(`Folder with ID '${folderId}' not found`);
      // Not a member (or another org's project): the same 404 as a folder that does not exist.
      await projectPermissions.accessFor(actor, row.project_id).catch(() => {
        throw new NotFoundError(`Folder with ID '${folderId}' not found`);
      });
      const tree = await scopes.treeOf(row.env_id);
      return {
        ...toFolder(row),
        path: tree.pathOf(row.id),
        projectId: row.project_id,
        environment: { envId: row.env_id, envName: row.env_name, envSlug: row.env_slug },
      };
    },

    async update(actor: Actor, idOrName: string, input: UpdateInput): Promise<FolderWithPath> {
      const parentPath = normalizePath(input.path ?? input.directory);
      const scope = await scopes.open(actor, { workspaceId: input.workspaceId }, input.environment, missing);
      assertCan(scope.access.ability, "edit", "secret-folders", {
        environment: scope.env.slug,
        secretPath: parentPath,
      });
      const parent = scope.tree.at(parentPath);
      if (!parent) throw folderNotFound(parentPath, scope.env.slug);
      const folder = target(scope.tree, parent, idOrName);
      if (!folder) throw new NotFoundError(`Folder with ID '${idOrName}' not found`);
      const sibling = scope.tree.childrenOf(folder.parent_id as string).find((f) => f.name === input.name);
      if (sibling && sibling.id !== folder.id) throw new BadRequestError("Folder with specified name already exists");
      try {
        await db.transaction().execute(async (trx) => {
          await renameFolder(trx, folder.id, { name: input.name, description: input.description, now: nowIso() });
          await commits.record(trx, {
            projectId: scope.projectId,
            envId: scope.env.id,
            folderId: folder.parent_id as string,
            actor,
            message: "Folder Updated",
          });
        });
      } catch (error) {
        if (isUniqueViolation(error, dialect)) throw new BadRequestError("Folder with specified name already exists");
        throw error;
      }
      return withPath(folder.id);
    },

    async delete(actor: Actor, idOrName: string, input: DeleteInput): Promise<Folder> {
      const parentPath = normalizePath(input.path ?? input.directory);
      const scope = await scopes.open(actor, { workspaceId: input.workspaceId }, input.environment, missing);
      assertCan(scope.access.ability, "delete", "secret-folders", {
        environment: scope.env.slug,
        secretPath: parentPath,
      });
      const parent = scope.tree.at(parentPath);
      const folder = parent ? target(scope.tree, parent, idOrName) : undefined;
      if (!folder) throw new NotFoundError(`Folder with ID '${idOrName}' not found`);
      await db.transaction().execute(async (trx) => {
        await deleteFolderRow(trx, folder.id);
        await commits.record(trx, {
          projectId: scope.projectId,
          envId: scope.env.id,
          folderId: folder.parent_id as string,
          actor,
          message: "Folder Deleted",
        });
      });
      return toFolder(folder);
    },
  };
}

export type FolderService = ReturnType<typeof createFolderService>;
