import { randomUUID } from "node:crypto";
import type { CreateEnvironmentBodySchema, EnvironmentRecord, UpdateEnvironmentBodySchema } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import {
  deleteEnvironmentRow,
  environmentSlugTaken,
  findEnvironment,
  insertEnvironments,
  maxPosition,
  shiftPositions,
  updateEnvironmentRow,
} from "../data/environments.ts";
import type { Database } from "../db/schema.ts";
import { nowIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { BadRequestError, NotFoundError } from "./errors.ts";
import type { ProjectPermissions } from "./project-permissions.ts";
import { guardSlug } from "./project-service.ts";
import { toEnvironmentRecord } from "./project-views.ts";

type CreateEnvironmentInput = z.output<typeof CreateEnvironmentBodySchema>;
type UpdateEnvironmentInput = z.output<typeof UpdateEnvironmentBodySchema>;

const duplicateEnvironmentSlug = (slug: string) =>
  new BadRequestError(`An environment with the slug "${slug}" already exists in this project`);

export interface EnvironmentServiceDeps {
  db: Kysely<Database>;
  projectPermissions: ProjectPermissions;
}

/** A project's environments: unique slugs, and 1-based positions kept without gaps. */
export function createEnvironmentService({ db, projectPermissions }: EnvironmentServiceDeps) {
  async function requireEnvironment(projectId: string, environmentId: string) {
    const env = await findEnvironment(db, projectId, environmentId);
    if (!env) throw new NotFoundError(`Environment with id '${environmentId}' not found`);
    return env;
  }

  return {
    async create(actor: Actor, projectId: string, input: CreateEnvironmentInput): Promise<EnvironmentRecord> {
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

    async update(
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

    async delete(actor: Actor, projectId: string, environmentId: string): Promise<EnvironmentRecord> {
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

export type EnvironmentService = ReturnType<typeof createEnvironmentService>;
