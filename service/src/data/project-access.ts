import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

/** The reads project permissions need: the project, the identity's membership, its roles and privileges. */

export async function findOrgProject(db: Kysely<Database>, orgId: string, projectId: string) {
  return db
    .selectFrom("projects")
    .select(["id", "org_id", "slug", "name"])
    .where("id", "=", projectId)
    .where("org_id", "=", orgId)
    .executeTakeFirst();
}

export async function findOrgProjectBySlug(db: Kysely<Database>, orgId: string, slug: string) {
  return db
    .selectFrom("projects")
    .select(["id", "org_id", "slug", "name"])
    .where("slug", "=", slug)
    .where("org_id", "=", orgId)
    .executeTakeFirst();
}

export async function findIdentityProjectMembership(db: Kysely<Database>, projectId: string, identityId: string) {
  return db
    .selectFrom("project_memberships")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("identity_id", "=", identityId)
    .executeTakeFirst();
}

/** The membership's roles, each with its custom role's slug and stored rules when it is one. */
export async function listMembershipRoleGrants(db: Kysely<Database>, membershipId: string) {
  return db
    .selectFrom("project_membership_roles as r")
    .leftJoin("project_roles as c", "c.id", "r.custom_role_id")
    .select([
      "r.id",
      "r.membership_id",
      "r.role",
      "r.custom_role_id",
      "r.is_temporary",
      "r.temporary_mode",
      "r.temporary_range",
      "r.temporary_access_start_time",
      "r.temporary_access_end_time",
      "r.created_at",
      "r.updated_at",
      "c.slug as custom_role_slug",
      "c.name as custom_role_name",
      "c.permissions as custom_role_permissions",
    ])
    .where("r.membership_id", "=", membershipId)
    .orderBy("r.created_at")
    .execute();
}

export type MembershipRoleGrant = Awaited<ReturnType<typeof listMembershipRoleGrants>>[number];

export async function listMembershipPrivilegeGrants(db: Kysely<Database>, membershipId: string) {
  return db
    .selectFrom("identity_project_privileges")
    .select(["id", "slug", "permissions", "is_temporary", "temporary_access_end_time"])
    .where("project_membership_id", "=", membershipId)
    .execute();
}
