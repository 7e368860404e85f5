import { randomUUID } from "node:crypto";
import type { Tag } from "@keyhold/contract";
import type { Kysely } from "kysely";
import { deleteTagRow, findTag, insertTag, listProjectTags, tagSlugTaken } from "../data/secret-tags.ts";
import { isUniqueViolation } from "../data/secrets.ts";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import type { SecretTagRow } from "../db/schema-secrets.ts";
import { nowIso, toIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { BadRequestError, NotFoundError } from "./errors.ts";
import type { ProjectPermissions } from "./project-permissions.ts";

export function toTag(row: SecretTagRow): Tag {
  return {
    id: row.id,
    slug: row.slug,
    color: row.color,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    createdBy: row.created_by,
    projectId: row.project_id,
    createdByActorType: row.created_by_actor_type,
  };
}

export interface TagServiceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  projectPermissions: ProjectPermissions;
}

/** A project's secret tags: unique slugs; deleting one takes it off every secret. */
export function createTagService({ db, dialect, projectPermissions }: TagServiceDeps) {
  const taken = () => new BadRequestError("Tag already exists");

  return {
    async list(actor: Actor, projectId: string): Promise<Tag[]> {
      await projectPermissions.assert(actor, projectId, "read", "tags");
      return (await listProjectTags(db, projectId)).map(toTag);
    },

    async create(actor: Actor, projectId: string, input: { slug: string; color: string }): Promise<Tag> {
      await projectPermissions.assert(actor, projectId, "create", "tags");
      if (await tagSlugTaken(db, projectId, input.slug)) throw taken();
      const now = nowIso();
      const row = {
        id: randomUUID(),
        project_id: projectId,
        slug: input.slug,
        color: input.color,
        created_by: actor.identityId,
        created_by_actor_type: "identity",
        created_at: now,
        updated_at: now,
      };
      try {
        await insertTag(db, row);
      } catch (error) {
        if (isUniqueViolation(error, dialect)) throw taken();
        throw error;
      }
      return toTag(row);
    },

    async delete(actor: Actor, projectId: string, tagId: string): Promise<Tag> {
      await projectPermissions.assert(actor, projectId, "delete", "tags");
      const row = await findTag(db, projectId, tagId);
      if (!row) throw new NotFoundError(`Tag with ID '${tagId}' not found`);
      await deleteTagRow(db, tagId);
      return toTag(row);
    },
  };
}

export type TagService = ReturnType<typeof createTagService>;
