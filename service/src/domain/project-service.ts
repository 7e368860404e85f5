import { randomBytes, randomUUID } from "node:crypto";
import type {
  CreateEnvironmentBodySchema,
  CreateProjectBodySchema,
  EnvironmentRecord,
  Project,
  ProjectRecord,
  UpdateEnvironmentBodySchema,
  UpdateProjectBodySchema,
} from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import {
  deleteEnvironmentRow,
  environmentSlugTaken,
  findEnvironment,
  insertEnvironments,
  listEnvironments,
  maxPosition,
  shiftPositions,
  updateEnvironmentRow,
} from "../data/environments.ts";
import {
  deleteProjectRow,
  findProject,
  insertIdentityMembership,
  insertProject,
  listProjectsOfMember,
  slugTaken,
  updateProjectRow,
} from "../data/projects.ts";
import type { Database, ProjectPatch, ProjectRow } from "../db/schema.ts";
import { nowIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { BadRequestError, ForbiddenError, NotFoundError } from "./errors.ts";
import type { ProjectPermissions } from "./project-permissions.ts";
import { toEnvironmentRecord, toProject, toProjectRecord } from "./project-views.ts";

type CreateProjectInput = z.output<typeof CreateProjectBodySchema>;
type UpdateProjectInput = z.output<typeof UpdateProjectBodySchema>;
type CreateEnvironmentInput = z.output<typeof CreateEnvironmentBodySchema>;
type UpdateEnvironmentInput = z.output<typeof UpdateEnvironmentBodySchema>;

/** Infisical's defaults for a new project's environments, in this order. */
const defaultEnvironments = [
  { name: "Development", slug: "dev" },
  { name: "Staging", slug: "staging" },
  { name: "Production", slug: "prod" },
] as const;

/** New projects are created at Infisical's current project version with its history limit. */
const PROJECT_VERSION = 3;
const DEFAULT_PIT_VERSION_LIMIT = 10;
const ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";

/** Lowercase letters and digits separated by single hyphens; accents dropped. */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The slug of a project created without one: its name and four random characters. */
export function defaultProjectSlug(name: string): string {
  const suffix = Array.from(randomBytes(4), (b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join("");
  return slugify(`${name.slice(0, 59)}-${suffix}`);
}

const duplicateProjectSlug = (slug: string) =>
  new BadRequestError(
    `A project with the slug "${slug}" already exists in your organization. Please choose a different name or slug.`,
  );
const duplicateEnvironmentSlug = (slug: string) =>
  new BadRequestError(`An environment with the slug "${slug}" already exists in this project`);

export interface ProjectServiceDeps {
  db: Kysely<Database>;
  projectPermissions: ProjectPermissions;
}

export function createProjectService({ db, projectPermissions }: ProjectServiceDeps) {
  async function requireProject(actor: Actor, projectId: string): Promise<ProjectRow> {
    const row = await findProject(db, actor.orgId, projectId);
    if (!row) throw new NotFoundError(`Project with ID '${projectId}' not found`);
    return row;
  }

  async function requireEnvironment(projectId: string, environmentId: string) {
    const env = await findEnvironment(db, projectId, environmentId);
    if (!env) throw new NotFoundError(`Environment with id '${environmentId}' not found`);
    return env;
  }

  async function projectView(row: ProjectRow): Promise<Project> {
    return toProject(row, await listEnvironments(db, [row.id]));
  }

  /** Runs a write that may hit a unique slug; a lost race reads as the duplicate it is. */
  async function guardSlug<T>(write: () => Promise<T>, isTaken: () => Promise<boolean>, error: Error): Promise<T> {
    try {
      return await write();
    } catch (cause) {
      if (await isTaken()) throw error;
      throw cause;
    }
  }

  return {
    async create(actor: Actor, input: CreateProjectInput): Promise<Project & { kmsSecretManagerKeyId: null }> {
      // Project creation is an organisation permission (Infisical: workspace or project create).
      if (actor.ability.cannot("create", "workspace" as never)) {
        throw new ForbiddenError("You don't have permission to create a project");
      }
      if (input.kmsKeyId) throw new BadRequestError("This service has no external KMS keys; leave kmsKeyId out");
      if (input.template !== "default") throw new NotFoundError(`Project template "${input.template}" not found`);
      const slug = input.slug ?? defaultProjectSlug(input.projectName);
      if (await slugTaken(db, actor.orgId, slug)) throw duplicateProjectSlug(slug);

      const now = nowIso();
      const id = randomUUID();
      await guardSlug(
        () =>
          db.transaction().execute(async (trx) => {
            await insertProject(trx, {
              id,
              org_id: actor.orgId,
              name: input.projectName,
              slug,
              description: input.projectDescription ?? null,
              type: input.type,
              default_product: null,
              version: PROJECT_VERSION,
              upgrade_status: null,
              pit_version_limit: DEFAULT_PIT_VERSION_LIMIT,
              kms_certificate_key_id: null,
              kms_secret_manager_key_id: null,
              audit_logs_retention_days: null,
              has_delete_protection: input.hasDeleteProtection ? 1 : 0,
              secret_detection_ignore_values: null,
              enforce_encrypted_secret_manager_secret_metadata: null,
              created_at: now,
              updated_at: now,
            });
            if (input.shouldCreateDefaultEnvs) {
              await insertEnvironments(
                trx,
                defaultEnvironments.map((env, i) => ({
                  id: randomUUID(),
                  projectId: id,
                  ...env,
                  position: i + 1,
                  now,
                })),
              );
            }
            // The creator administers what it created.
            await insertIdentityMembership(trx, id, actor.identityId, "admin", now);
          }),
        () => slugTaken(db, actor.orgId, slug),
        duplicateProjectSlug(slug),
      );
      return { ...(await projectView(await requireProject(actor, id))), kmsSecretManagerKeyId: null };
    },

    /** The projects of the actor's organisation it is a member of. */
    async list(actor: Actor, type?: string): Promise<Project[]> {
      const rows = await listProjectsOfMember(db, actor.orgId, actor.identityId, type);
      const environments = await listEnvironments(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((row) =>
        toProject(
          row,
          environments.filter((e) => e.project_id === row.id),
        ),
      );
    },

    /** Any member may read the project. */
    async get(actor: Actor, projectId: string): Promise<Project> {
      await projectPermissions.accessFor(actor, projectId);
      return projectView(await requireProject(actor, projectId));
    },

    async update(actor: Actor, projectId: string, input: UpdateProjectInput): Promise<ProjectRecord> {
      await projectPermissions.assert(actor, projectId, "edit", "settings");
      const row = await requireProject(actor, projectId);
      const { slug } = input;
      if (slug !== undefined && slug !== row.slug && (await slugTaken(db, actor.orgId, slug, projectId))) {
        throw duplicateProjectSlug(slug);
      }
      const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
      const patch: ProjectPatch = {
        name: input.name,
        description: input.description,
        slug,
        auto_capitalization: flag(input.autoCapitalization),
        has_delete_protection: flag(input.hasDeleteProtection),
        secret_sharing: flag(input.secretSharing),
        show_snapshots_legacy: flag(input.showSnapshotsLegacy),
        default_product: input.defaultProduct,
        pit_version_limit: input.pitVersionLimit,
        updated_at: nowIso(),
      };
      await guardSlug(
        () => updateProjectRow(db, projectId, patch),
        async () => slug !== undefined && slugTaken(db, actor.orgId, slug, projectId),
        duplicateProjectSlug(slug ?? ""),
      );
      return toProjectRecord(await requireProject(actor, projectId));
    },

    async delete(actor: Actor, projectId: string): Promise<ProjectRecord> {
      await projectPermissions.assert(actor, projectId, "delete", "workspace");
      const row = await requireProject(actor, projectId);
      if (row.has_delete_protection === 1) throw new ForbiddenError("Project delete protection is enabled");
      await db.transaction().execute((trx) => deleteProjectRow(trx, projectId));
      return toProjectRecord(row);
    },

    async createEnvironment(
      actor: Actor,
      projectId: string,
      input: CreateEnvironmentInput,
    ): Promise<EnvironmentRecord> {
      await projectPermissions.assert(actor, projectId, "create", "environments");
      if (await environmentSlugTaken(db, projectId, input.slug)) throw duplicateEnvironmentSlug(input.slug);
      const id = randomUUID();
      const now = nowIso();
      await guardSlug(
        () =>
          db.transaction().execute(async (trx) => {
            const last = await maxPosition(trx, projectId);
            // A position inside the list opens a gap there; anything past the end appends.
            const position = Math.min(input.position ?? last + 1, last + 1);
            if (position <= last) await shiftPositions(trx, projectId, position, 1, now);
            await insertEnvironments(trx, [{ id, projectId, name: input.name, slug: input.slug, position, now }]);
          }),
        () => environmentSlugTaken(db, projectId, input.slug, id),
        duplicateEnvironmentSlug(input.slug),
      );
      return toEnvironmentRecord(await requireEnvironment(projectId, id));
    },

    async updateEnvironment(
      actor: Actor,
      projectId: string,
      environmentId: string,
      input: UpdateEnvironmentInput,
    ): Promise<EnvironmentRecord> {
      await projectPermissions.assert(actor, projectId, "edit", "environments");
      const env = await requireEnvironment(projectId, environmentId);
      const { slug } = input;
      if (slug !== undefined && slug !== env.slug && (await environmentSlugTaken(db, projectId, slug, environmentId))) {
        throw duplicateEnvironmentSlug(slug);
      }
      const now = nowIso();
      await guardSlug(
        () =>
          db.transaction().execute(async (trx) => {
            let position: number | undefined;
            if (input.position !== undefined && input.position !== env.position) {
              // Moving one environment shifts those between its old and new places by one.
              position = Math.min(input.position, await maxPosition(trx, projectId));
              if (position < env.position) await shiftPositions(trx, projectId, position, 1, now, env.position - 1);
              else if (position > env.position)
                await shiftPositions(trx, projectId, env.position + 1, -1, now, position);
            }
            await updateEnvironmentRow(trx, environmentId, { name: input.name, slug, position, updated_at: now });
          }),
        async () => slug !== undefined && environmentSlugTaken(db, projectId, slug, environmentId),
        duplicateEnvironmentSlug(slug ?? ""),
      );
      return toEnvironmentRecord(await requireEnvironment(projectId, environmentId));
    },

    async deleteEnvironment(actor: Actor, projectId: string, environmentId: string): Promise<EnvironmentRecord> {
      await projectPermissions.assert(actor, projectId, "delete", "environments");
      const env = await requireEnvironment(projectId, environmentId);
      await db.transaction().execute(async (trx) => {
        await deleteEnvironmentRow(trx, environmentId);
        await shiftPositions(trx, projectId, env.position + 1, -1, nowIso());
      });
      return toEnvironmentRecord(env);
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
