import { createHash, randomUUID } from "node:crypto";
import {
  type CreateProjectRoleBodySchema,
  type ProjectRole,
  type ProjectRoleSummary,
  reservedProjectRoleSlugs,
  type UpdateProjectRoleBodySchema,
} from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import {
  countMembershipsWithRole,
  deleteProjectRoleRow,
  findProjectRole,
  findProjectRoleBySlug,
  insertProjectRole,
  listProjectRoles,
  updateProjectRoleRow,
} from "../data/project-roles.ts";
import { findProject } from "../data/projects.ts";
import type { Database, ProjectRoleRow } from "../db/schema.ts";
import { nowIso, toIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { BadRequestError, NotFoundError } from "./errors.ts";
import {
  isPredefinedProjectRole,
  normalizeRule,
  type PredefinedProjectRole,
  type ProjectPermissions,
  parseStoredRules,
  predefinedProjectRoles,
  serializeRules,
} from "./project-permissions.ts";

type CreateRoleInput = z.output<typeof CreateProjectRoleBodySchema>;
type UpdateRoleInput = z.output<typeof UpdateProjectRoleBodySchema>;

/**
 * A predefined role's id in a project: stable (derived from the project and the slug), so a
 * console can key on it, and a valid RFC 4122 uuid (version 5 layout) as the contract requires.
 */
export function predefinedRoleId(projectId: string, slug: string): string {
  const hex = createHash("sha256").update(`${projectId}:role:${slug}`).digest("hex");
  const variant = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function toRole(row: ProjectRoleRow): ProjectRole {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    slug: row.slug,
    permissions: parseStoredRules(row.permissions),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    projectId: row.project_id,
  };
}

/** Predefined roles are synthesized per project; their rules are returned as the engine holds them. */
function toPredefinedRole(role: PredefinedProjectRole, projectId: string, at: string): ProjectRole {
  return {
    id: predefinedRoleId(projectId, role.slug),
    name: role.name,
    description: role.description,
    slug: role.slug,
    permissions: role.permissions,
    createdAt: at,
    updatedAt: at,
    projectId,
  };
}

const duplicateSlug = (slug: string) => new BadRequestError(`Role with slug "${slug}" already exists in this project`);

export interface ProjectRoleServiceDeps {
  db: Kysely<Database>;
  projectPermissions: ProjectPermissions;
}

export function createProjectRoleService({ db, projectPermissions }: ProjectRoleServiceDeps) {
  async function requireRole(projectId: string, roleId: string): Promise<ProjectRoleRow> {
    const row = await findProjectRole(db, projectId, roleId);
    if (!row) throw new NotFoundError(`Role with ID '${roleId}' not found in this project`);
    return row;
  }

  async function slugTaken(projectId: string, slug: string, exceptId?: string): Promise<boolean> {
    const found = await findProjectRoleBySlug(db, projectId, slug);
    return found !== undefined && found.id !== exceptId;
  }

  /** A lost race on the unique (project, slug) reads as the duplicate it is. */
  async function guardSlug(write: () => Promise<void>, projectId: string, slug: string | undefined, roleId?: string) {
    try {
      await write();
    } catch (cause) {
      if (slug !== undefined && (await slugTaken(projectId, slug, roleId))) throw duplicateSlug(slug);
      throw cause;
    }
  }

  return {
    async create(actor: Actor, projectId: string, input: CreateRoleInput): Promise<ProjectRole> {
      await projectPermissions.assert(actor, projectId, "create", "role");
      if (await slugTaken(projectId, input.slug)) throw duplicateSlug(input.slug);
      const now = nowIso();
      const id = randomUUID();
      await guardSlug(
        () =>
          insertProjectRole(db, {
            id,
            project_id: projectId,
            name: input.name,
            slug: input.slug,
            description: input.description ?? null,
            permissions: serializeRules(input.permissions.map(normalizeRule)),
            created_at: now,
            updated_at: now,
          }),
        projectId,
        input.slug,
      );
      return toRole(await requireRole(projectId, id));
    },

    /** Predefined roles first, then custom roles by slug; the list leaves out each role's rules. */
    async list(actor: Actor, projectId: string): Promise<ProjectRoleSummary[]> {
      await projectPermissions.assert(actor, projectId, "read", "role");
      const project = await findProject(db, actor.orgId, projectId);
      if (!project) throw new NotFoundError(`Project with ID '${projectId}' not found`);
      const at = toIso(project.created_at);
      const predefined = Object.values(predefinedProjectRoles).map((r) => toPredefinedRole(r, projectId, at));
      const custom = (await listProjectRoles(db, projectId)).map(toRole);
      return [...predefined, ...custom].map(({ permissions: _rules, ...summary }) => summary);
    },

    async getBySlug(actor: Actor, projectId: string, slug: string): Promise<ProjectRole> {
      await projectPermissions.assert(actor, projectId, "read", "role");
      if (isPredefinedProjectRole(slug)) {
        const project = await findProject(db, actor.orgId, projectId);
        if (!project) throw new NotFoundError(`Project with ID '${projectId}' not found`);
        return toPredefinedRole(predefinedProjectRoles[slug], projectId, toIso(project.created_at));
      }
      if ((reservedProjectRoleSlugs as readonly string[]).includes(slug)) {
        throw new BadRequestError(`The built-in role "${slug}" does not apply to this project`);
      }
      const row = await findProjectRoleBySlug(db, projectId, slug);
      if (!row) throw new NotFoundError(`Role with slug '${slug}' not found in this project`);
      return toRole(row);
    },

    async update(actor: Actor, projectId: string, roleId: string, input: UpdateRoleInput): Promise<ProjectRole> {
      await projectPermissions.assert(actor, projectId, "edit", "role");
      const role = await requireRole(projectId, roleId);
      const { slug } = input;
      if (slug !== undefined && slug !== role.slug && (await slugTaken(projectId, slug, roleId))) {
        throw duplicateSlug(slug);
      }
      await guardSlug(
        () =>
          updateProjectRoleRow(db, roleId, {
            slug,
            name: input.name,
            description: input.description,
            permissions: input.permissions && serializeRules(input.permissions.map(normalizeRule)),
            updated_at: nowIso(),
          }),
        projectId,
        slug,
        roleId,
      );
      return toRole(await requireRole(projectId, roleId));
    },

    async delete(actor: Actor, projectId: string, roleId: string): Promise<ProjectRole> {
      await projectPermissions.assert(actor, projectId, "delete", "role");
      const role = await requireRole(projectId, roleId);
      const holders = await countMembershipsWithRole(db, roleId);
      if (holders > 0) {
        throw new BadRequestError(
          `Role is assigned to ${holders} membership(s). Re-assign them to another role before deleting this one.`,
        );
      }
      await deleteProjectRoleRow(db, roleId);
      return toRole(role);
    },
  };
}

export type ProjectRoleService = ReturnType<typeof createProjectRoleService>;
