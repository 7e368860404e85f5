import type { Kysely, Transaction } from "kysely";
import type { Database, NewProjectRole, ProjectRoleRow } from "../db/schema.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** Custom project roles; the predefined roles are code, not rows. */

export async function insertProjectRole(db: Db, row: NewProjectRole): Promise<void> {
  await db.insertInto("project_roles").values(row).execute();
}

export async function listProjectRoles(db: Db, projectId: string): Promise<ProjectRoleRow[]> {
  return db.selectFrom("project_roles").selectAll().where("project_id", "=", projectId).orderBy("slug").execute();
}

export async function findProjectRole(db: Db, projectId: string, roleId: string): Promise<ProjectRoleRow | undefined> {
  return db
    .selectFrom("project_roles")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("id", "=", roleId)
    .executeTakeFirst();
}

export async function findProjectRoleBySlug(
  db: Db,
  projectId: string,
  slug: string,
): Promise<ProjectRoleRow | undefined> {
  return db
    .selectFrom("project_roles")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("slug", "=", slug)
    .executeTakeFirst();
}

export async function updateProjectRoleRow(
  db: Db,
  roleId: string,
  patch: { slug?: string; name?: string; description?: string | null; permissions?: string; updated_at: string },
): Promise<void> {
  await db.updateTable("project_roles").set(patch).where("id", "=", roleId).execute();
}

export async function deleteProjectRoleRow(db: Db, roleId: string): Promise<void> {
  await db.deleteFrom("project_roles").where("id", "=", roleId).execute();
}

/** How many memberships hold the custom role (permanently or temporarily). */
export async function countMembershipsWithRole(db: Db, roleId: string): Promise<number> {
  const row = await db
    .selectFrom("project_membership_roles")
    .select((eb) => eb.fn.count<string | number>("membership_id").distinct().as("count"))
    .where("custom_role_id", "=", roleId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
