import type { Kysely } from "kysely";
import { findOrgProjectBySlug } from "../data/project-access.ts";
import { FolderTree, findEnvironmentBySlug, listEnvironmentFolders, rootFolder } from "../data/secret-folders.ts";
import type { Database, ProjectEnvironmentRow } from "../db/schema.ts";
import { nowIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { BadRequestError, NotFoundError } from "./errors.ts";
import type { ProjectAccess, ProjectPermissions } from "./project-permissions.ts";

/** How a request names its project: by id (v3 `workspaceId`, v4 `projectId`) or by slug. */
export interface ProjectRef {
  workspaceId?: string | undefined;
  projectId?: string | undefined;
  workspaceSlug?: string | undefined;
  projectSlug?: string | undefined;
}

/** Where a secret call works: the caller's access to the project, the environment and its folders. */
export interface SecretScope {
  access: ProjectAccess;
  projectId: string;
  env: ProjectEnvironmentRow;
  tree: FolderTree;
}

export const folderNotFound = (path: string, envSlug: string) =>
  new NotFoundError(`Folder with path '${path}' in environment with slug '${envSlug}' not found`);

export interface SecretScopesDeps {
  db: Kysely<Database>;
  projectPermissions: ProjectPermissions;
}

/** Resolves project, access, environment and folder tree for the secret, folder and tag services. */
export function createSecretScopes({ db, projectPermissions }: SecretScopesDeps) {
  async function projectIdOf(actor: Actor, ref: ProjectRef, missing: string): Promise<string> {
    const id = ref.projectId ?? ref.workspaceId;
    if (id) return id;
    const slug = ref.workspaceSlug ?? ref.projectSlug;
    if (!slug) throw new BadRequestError(missing);
    const project = await findOrgProjectBySlug(db, actor.orgId, slug);
    if (!project) throw new NotFoundError(`Project with slug '${slug}' not found`);
    return project.id;
  }

  /** The environment's folders, its root made first when it has none yet. */
  async function treeOf(envId: string): Promise<FolderTree> {
    let folders = await listEnvironmentFolders(db, envId);
    if (!folders.some((f) => f.parent_id === null)) {
      await rootFolder(db, envId, nowIso());
      folders = await listEnvironmentFolders(db, envId);
    }
    return new FolderTree(folders);
  }

  async function environment(projectId: string, slug: string): Promise<ProjectEnvironmentRow> {
    const env = await findEnvironmentBySlug(db, projectId, slug);
    if (!env) throw new NotFoundError(`Environment with slug '${slug}' in project with ID '${projectId}' not found`);
    return env;
  }

  return {
    projectIdOf,
    treeOf,
    environment,

    /** Checks membership (404 no project, 403 not a member), then finds the environment (404). */
    async open(
      actor: Actor,
      ref: ProjectRef,
      envSlug: string | undefined,
      missing = "Missing workspace id or environment",
    ): Promise<SecretScope> {
      const projectId = await projectIdOf(actor, ref, missing);
      if (!envSlug) throw new BadRequestError(missing);
      const access = await projectPermissions.accessFor(actor, projectId);
      const env = await environment(projectId, envSlug);
      return { access, projectId, env, tree: await treeOf(env.id) };
    },
  };
}

export type SecretScopes = ReturnType<typeof createSecretScopes>;
