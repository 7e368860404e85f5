import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Database, ProjectMembershipRow, ProjectMembershipRoleRow, ProjectRoleRow } from "../db/schema.ts";
import { authMethodFlags, authMethodsOf } from "./auth-methods.ts";

/** Project memberships of users and identities, and the roles they hold. */

export interface NewRoleRow {
  role: string;
  customRoleId: string | null;
  isTemporary: boolean;
  temporaryRange: string | null;
  temporaryAccessStartTime: string | null;
  temporaryAccessEndTime: string | null;
}

export async function findProjectInOrg(db: Kysely<Database>, orgId: string, projectId: string) {
  return db
    .selectFrom("projects")
    .select(["id", "name", "type"])
    .where("id", "=", projectId)
    .where("org_id", "=", orgId)
    .executeTakeFirst();
}

/** The project's custom roles with these slugs. */
export async function findCustomRolesBySlugs(
  db: Kysely<Database>,
  projectId: string,
  slugs: readonly string[],
): Promise<ProjectRoleRow[]> {
  if (slugs.length === 0) return [];
  return db
    .selectFrom("project_roles")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("slug", "in", slugs)
    .execute();
}

export async function findIdentityMembership(
  db: Kysely<Database>,
  projectId: string,
  identityId: string,
): Promise<ProjectMembershipRow | undefined> {
  return db
    .selectFrom("project_memberships")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("identity_id", "=", identityId)
    .executeTakeFirst();
}

/** The user memberships among `userIds` that the project already has. */
export async function findUserMemberships(
  db: Kysely<Database>,
  projectId: string,
  userIds: readonly string[],
): Promise<ProjectMembershipRow[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom("project_memberships")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("user_id", "in", userIds)
    .execute();
}

/**
 * Inserts a membership of one user or one identity; when the project already has it (a
 * concurrent add), inserts nothing and answers undefined.
 */
export async function insertMembership(
  db: Kysely<Database>,
  member: { projectId: string; userId?: string; identityId?: string },
  now: string,
): Promise<ProjectMembershipRow | undefined> {
  const conflictColumns = member.identityId
    ? (["project_id", "identity_id"] as const)
    : (["project_id", "user_id"] as const);
  return db
    .insertInto("project_memberships")
    .values({
      id: randomUUID(),
      project_id: member.projectId,
      user_id: member.userId ?? null,
      identity_id: member.identityId ?? null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns([...conflictColumns]).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function insertMembershipRoles(
  db: Kysely<Database>,
  membershipId: string,
  roles: readonly NewRoleRow[],
  now: string,
): Promise<ProjectMembershipRoleRow[]> {
  if (roles.length === 0) return [];
  return db
    .insertInto("project_membership_roles")
    .values(
      roles.map((r) => ({
        id: randomUUID(),
        membership_id: membershipId,
        role: r.role,
        custom_role_id: r.customRoleId,
        is_temporary: r.isTemporary ? 1 : 0,
        temporary_mode: r.isTemporary ? "relative" : null,
        temporary_range: r.temporaryRange,
        temporary_access_start_time: r.temporaryAccessStartTime,
        temporary_access_end_time: r.temporaryAccessEndTime,
        created_at: now,
        updated_at: now,
      })),
    )
    .returningAll()
    .execute();
}

/** The whole role set is replaced: old rows go, new rows come, in one transaction of the caller. */
export async function replaceMembershipRoles(
  db: Kysely<Database>,
  membershipId: string,
  roles: readonly NewRoleRow[],
  now: string,
): Promise<ProjectMembershipRoleRow[]> {
  await db.deleteFrom("project_membership_roles").where("membership_id", "=", membershipId).execute();
  await db.updateTable("project_memberships").set({ updated_at: now }).where("id", "=", membershipId).execute();
  return insertMembershipRoles(db, membershipId, roles, now);
}

/** Deleting the membership cascades to its roles and its additional privileges. */
export async function deleteMembership(db: Kysely<Database>, membershipId: string): Promise<void> {
  await db.deleteFrom("project_memberships").where("id", "=", membershipId).execute();
}

/** The roles of these memberships, with each custom role's slug and name. */
export async function listRoleViews(db: Kysely<Database>, membershipIds: readonly string[]) {
  if (membershipIds.length === 0) return [];
  return (
    db
      .selectFrom("project_membership_roles as r")
      .leftJoin("project_roles as c", "c.id", "r.custom_role_id")
      .selectAll("r")
      .select(["c.slug as custom_role_slug", "c.name as custom_role_name"])
      .where("r.membership_id", "in", membershipIds)
      // Rows of one update share a timestamp: permanent roles first, then by slug, for a stable order.
      .orderBy("r.created_at")
      .orderBy("r.is_temporary")
      .orderBy("r.role")
      .orderBy("c.slug")
      .execute()
  );
}
export type RoleView = Awaited<ReturnType<typeof listRoleViews>>[number];

/** LIKE's wildcards, escaped, so a search for "50%" finds the text "50%". */
function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface IdentityMembershipPage {
  identityId?: string | undefined;
  search?: string | undefined;
  orderDirection?: "asc" | "desc" | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

/** A project's identity memberships with each identity's name and auth methods, a page at a time. */
export async function listIdentityMemberships(db: Kysely<Database>, projectId: string, page: IdentityMembershipPage) {
  const query = db
    .selectFrom("project_memberships as m")
    .innerJoin("identities as i", "i.id", "m.identity_id")
    .where("m.project_id", "=", projectId)
    .$if(page.identityId !== undefined, (q) => q.where("m.identity_id", "=", page.identityId ?? ""))
    .$if(Boolean(page.search), (q) =>
      q.where(sql<boolean>`lower(i.name) like ${likeContains(page.search ?? "")} escape '\\'`),
    );
  const direction = page.orderDirection ?? "asc";
  const [rows, count] = await Promise.all([
    query
      .selectAll("m")
      .select(["i.name as identity_name"])
      .select(authMethodFlags)
      .orderBy("i.name", direction)
      .orderBy("i.id")
      .$if(page.limit !== undefined, (q) => q.limit(page.limit ?? 0))
      .$if((page.offset ?? 0) > 0, (q) => q.offset(page.offset ?? 0))
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as("count")).executeTakeFirstOrThrow(),
  ]);
  const memberships = rows.map(({ identity_name, ...row }) => ({
    membership: {
      id: row.id,
      project_id: row.project_id,
      user_id: row.user_id,
      identity_id: row.identity_id,
      created_at: row.created_at,
      updated_at: row.updated_at,
    } satisfies ProjectMembershipRow,
    identityName: identity_name,
    authMethods: authMethodsOf(row) as string[],
  }));
  return { memberships, totalCount: Number(count.count) };
}

/** A project's user memberships with each user's record, in e-mail order. */
export async function listUserMemberships(db: Kysely<Database>, projectId: string) {
  return db
    .selectFrom("project_memberships as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .selectAll("m")
    .select([
      "u.email as user_email",
      "u.username as user_username",
      "u.first_name as user_first_name",
      "u.last_name as user_last_name",
    ])
    .where("m.project_id", "=", projectId)
    .orderBy("u.username")
    .execute();
}

/** The projects an identity belongs to, with each project's name and type. */
export async function listProjectsOfIdentity(db: Kysely<Database>, identityId: string) {
  return db
    .selectFrom("project_memberships as m")
    .innerJoin("projects as p", "p.id", "m.project_id")
    .selectAll("m")
    .select(["p.name as project_name", "p.type as project_type"])
    .where("m.identity_id", "=", identityId)
    .orderBy("p.name")
    .orderBy("p.id")
    .execute();
}
