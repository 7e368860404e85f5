import { randomBytes, randomUUID } from "node:crypto";
import type { CreateProjectBodySchema, Project, ProjectRecord, UpdateProjectBodySchema } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { insertEnvironments, listEnvironments } from "../data/environments.ts";
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
import { toProject, toProjectRecord } from "./project-views.ts";

type CreateProjectInput = z.output<typeof CreateProjectBodySchema>;
type UpdateProjectInput = z.output<typeof UpdateProjectBodySchema>;

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

/** Runs a write that may hit a unique slug; a lost race reads as the duplicate it is. */
export async function guardSlug<T>(write: () => Promise<T>, isTaken: () => Promise<boolean>, error: Error): Promise<T> {
  try {
    return await write();
  } catch (cause) {
    if (await isTaken()) throw error;
    throw cause;
  }
}

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

  async function projectView(row: ProjectRow): Promise<Project> {
    return toProject(row, await listEnvironments(db, [row.id]));
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
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
