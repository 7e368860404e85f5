import type { MembershipRole, MembershipRoleRow, ProjectIdentityMembership } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { MembershipWithIdentity } from "../data/identities.ts";
import { listProjectsOfIdentity, listRoleViews, type RoleView } from "../data/project-memberships.ts";
import type { Database, ProjectMembershipRoleRow, ProjectMembershipRow } from "../db/schema.ts";
import { toIso, toIsoOrNull } from "../lib/time.ts";

/** Membership rows to wire records, in the shapes the mid-2026 server answers with. */

/** A role as membership listings show it: a custom role with its slug and name. */
export function toRoleView(row: RoleView): MembershipRole {
  return {
    id: row.id,
    role: row.role,
    customRoleId: row.custom_role_id,
    customRoleName: row.custom_role_name ?? null,
    customRoleSlug: row.custom_role_slug ?? null,
    isTemporary: row.is_temporary === 1,
    temporaryMode: row.temporary_mode,
    temporaryRange: row.temporary_range,
    temporaryAccessStartTime: toIsoOrNull(row.temporary_access_start_time),
    temporaryAccessEndTime: toIsoOrNull(row.temporary_access_end_time),
  };
}

/** A stored role row, as an update answers with it (a custom role by id only). */
export function toRoleRow(row: ProjectMembershipRoleRow): MembershipRoleRow {
  return {
    id: row.id,
    role: row.role,
    projectMembershipId: row.membership_id,
    customRoleId: row.custom_role_id,
    isTemporary: row.is_temporary === 1,
    temporaryMode: row.temporary_mode,
    temporaryRange: row.temporary_range,
    temporaryAccessStartTime: toIsoOrNull(row.temporary_access_start_time),
    temporaryAccessEndTime: toIsoOrNull(row.temporary_access_end_time),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** The bare membership record that add and remove answer with. */
export function toIdentityMembershipRecord(row: ProjectMembershipRow) {
  return {
    id: row.id,
    projectId: row.project_id,
    identityId: row.identity_id ?? "",
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** The roles of many memberships, read in one query, by membership id. */
export async function rolesByMembership(
  db: Kysely<Database>,
  membershipIds: readonly string[],
): Promise<(membershipId: string) => MembershipRole[]> {
  const byMembership = new Map<string, MembershipRole[]>();
  for (const row of await listRoleViews(db, membershipIds)) {
    const roles = byMembership.get(row.membership_id);
    if (roles) roles.push(toRoleView(row));
    else byMembership.set(row.membership_id, [toRoleView(row)]);
  }
  return (membershipId) => byMembership.get(membershipId) ?? [];
}

/** A project's identity membership as the list and get views answer with it. */
export function toProjectIdentityMembership(
  membership: ProjectMembershipRow,
  identity: { id: string; name: string; authMethods: string[] },
  roles: MembershipRole[],
  project: { id: string; name: string },
): ProjectIdentityMembership {
  return {
    id: membership.id,
    identityId: identity.id,
    createdAt: toIso(membership.created_at),
    updatedAt: toIso(membership.updated_at),
    roles,
    identity: { name: identity.name, id: identity.id, authMethods: identity.authMethods },
    project: { name: project.name, id: project.id },
  };
}

/** The projects an identity belongs to, with its roles there (GET /api/v1/identities/{id}/identity-memberships). */
export async function projectMembershipsOfIdentity(db: Kysely<Database>, found: MembershipWithIdentity) {
  const rows = await listProjectsOfIdentity(db, found.identity.id);
  const roles = await rolesByMembership(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    identityId: found.identity.id,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    roles: roles(row.id),
    identity: {
      name: found.identity.name,
      id: found.identity.id,
      hasDeleteProtection: found.identity.has_delete_protection === 1,
      authMethods: found.authMethods,
    },
    project: { name: row.project_name, id: row.project_id, type: row.project_type },
  }));
}
