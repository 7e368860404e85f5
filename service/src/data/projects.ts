import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database, NewProject, ProjectPatch, ProjectRow } from "../db/schema.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** Project rows and the membership that makes a project's creator its admin. */

export async function insertProject(db: Db, row: NewProject): Promise<void> {
  await db.insertInto("projects").values(row).execute();
}

export async function findProject(db: Db, orgId: string, projectId: string): Promise<ProjectRow | undefined> {
  return db
    .selectFrom("projects")
    .selectAll()
    .where("id", "=", projectId)
    .where("org_id", "=", orgId)
    .executeTakeFirst();
}

/** Another project of the org already using the slug (`exceptId` excluded). */
export async function slugTaken(db: Db, orgId: string, slug: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom("projects").select("id").where("org_id", "=", orgId).where("slug", "=", slug);
  if (exceptId) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The org's projects the identity is a member of, oldest first. */
export async function listProjectsOfMember(
  db: Db,
  orgId: string,
  identityId: string,
  type?: string,
): Promise<ProjectRow[]> {
  let query = db
    .selectFrom("projects as p")
    .innerJoin("project_memberships as m", "m.project_id", "p.id")
    .selectAll("p")
    .where("p.org_id", "=", orgId)
    .where("m.identity_id", "=", identityId);
  if (type) query = query.where("p.type", "=", type);
  return query.orderBy("p.created_at").orderBy("p.id").execute();
}

export async function updateProjectRow(db: Db, projectId: string, patch: ProjectPatch): Promise<void> {
  await db.updateTable("projects").set(patch).where("id", "=", projectId).execute();
}

/** Deletes the project; environments, roles, memberships and privileges go with it (cascade). */
export async function deleteProjectRow(db: Db, projectId: string): Promise<void> {
  // Membership roles reference custom roles without cascade, so they go first.
  await db
    .deleteFrom("project_membership_roles")
    .where("membership_id", "in", db.selectFrom("project_memberships").select("id").where("project_id", "=", projectId))
    .execute();
  await db.deleteFrom("projects").where("id", "=", projectId).execute();
}

/** Makes an identity a member of a project holding one permanent predefined role. */
export async function insertIdentityMembership(
  db: Db,
  projectId: string,
  identityId: string,
  role: string,
  now: string,
): Promise<string> {
  const membershipId = randomUUID();
  await db
    .insertInto("project_memberships")
    .values({
      id: membershipId,
      project_id: projectId,
      identity_id: identityId,
      user_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto("project_membership_roles")
    .values({
      id: randomUUID(),
      membership_id: membershipId,
      role,
      custom_role_id: null,
      is_temporary: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return membershipId;
}
