import type { Kysely } from "kysely";
import {
  findIdentityProjectMembership,
  findOrgProject,
  listMembershipPrivilegeGrants,
  listMembershipRoleGrants,
  type MembershipRoleGrant,
} from "../data/project-access.ts";
import type { Database, ProjectMembershipRow } from "../db/schema.ts";
import type { Actor } from "./access-tokens.ts";
import { AppError, NotFoundError } from "./errors.ts";
import {
  buildProjectAbility,
  isGrantActive,
  isPredefinedProjectRole,
  type ProjectAbility,
  type ProjectFields,
  type ProjectRule,
  parseStoredRules,
  predefinedProjectRoles,
  rulesForIdentity,
} from "@keyhold/contract/permission-engine";
import { assertBoundary, assertCan } from "./project-permissions-engine.ts";

export {
  buildProjectAbility,
  canDescribe,
  canReadValue,
  globMatches,
  isGrantActive,
  isPredefinedProjectRole,
  type MissingPermission,
  missingPermissions,
  normalizeRule,
  type PredefinedProjectRole,
  type PredefinedProjectRoleSlug,
  type ProjectAbility,
  type ProjectFields,
  type ProjectRule,
  parseStoredRules,
  predefinedProjectRoles,
  projectSubject,
  rulesAbout,
  rulesForIdentity,
  serializeRules,
  type TemporaryWindow,
} from "@keyhold/contract/permission-engine";
export { assertBoundary, assertCan } from "./project-permissions-engine.ts";

/** An identity that is not a member of the project it addresses (Infisical's 403 for that case). */
export class ProjectMembershipNotFoundError extends AppError {
  readonly statusCode = 403;
  readonly errorName = "ProjectMembershipNotFound";
}

/** The rules one membership role grants: a predefined role's, or its custom role's stored rules. */
export function rulesOfRole(role: Pick<MembershipRoleGrant, "role" | "custom_role_permissions">): ProjectRule[] {
  if (role.custom_role_permissions !== null && role.custom_role_permissions !== undefined) {
    return parseStoredRules(role.custom_role_permissions);
  }
  return isPredefinedProjectRole(role.role) ? predefinedProjectRoles[role.role].permissions : [];
}

/** What an identity may do in a project, and why (its membership and role rows). */
export interface ProjectAccess {
  project: { id: string; orgId: string; slug: string; name: string };
  membership: ProjectMembershipRow;
  /** Every role row of the membership, active or not. */
  roles: MembershipRoleGrant[];
  /** The active rules: active roles' rules, then active additional privileges' rules. */
  rules: ProjectRule[];
  ability: ProjectAbility;
}

export interface ProjectPermissionsDeps {
  db: Kysely<Database>;
  /** Milliseconds since the epoch; tests pass their own clock. */
  now?: () => number;
}

/**
 * Project permission checks for every project-scoped endpoint. Each call reads the membership,
 * its roles and privileges afresh (nothing is cached across requests), so a revoked role or an
 * expired temporary privilege stops counting on the very next request.
 */
export function createProjectPermissions({ db, now = () => Date.now() }: ProjectPermissionsDeps) {
  /** The rules `identityId` holds in `projectId` now; null when it is not a member. */
  async function identityAccess(project: ProjectAccess["project"], identityId: string): Promise<ProjectAccess | null> {
    const membership = await findIdentityProjectMembership(db, project.id, identityId);
    if (!membership) return null;
    const [roles, privileges] = await Promise.all([
      listMembershipRoleGrants(db, membership.id),
      listMembershipPrivilegeGrants(db, membership.id),
    ]);
    const at = now();
    const active = (row: { is_temporary: number; temporary_access_end_time: Date | string | null }) =>
      isGrantActive({ isTemporary: row.is_temporary === 1, temporaryAccessEndTime: row.temporary_access_end_time }, at);
    const rules = rulesForIdentity(
      [
        ...roles.filter(active).flatMap(rulesOfRole),
        ...privileges.filter(active).flatMap((p) => parseStoredRules(p.permissions)),
      ],
      identityId,
    );
    return { project, membership, roles, rules, ability: buildProjectAbility(rules) };
  }

  async function requireProject(actor: Actor, projectId: string): Promise<ProjectAccess["project"]> {
    const row = await findOrgProject(db, actor.orgId, projectId);
    if (!row) throw new NotFoundError(`Project with ID '${projectId}' not found`);
    return { id: row.id, orgId: row.org_id, slug: row.slug, name: row.name };
  }

  /** The actor's access to a project: 404 when the project is not in its org, 403 when not a member. */
  async function accessFor(actor: Actor, projectId: string): Promise<ProjectAccess> {
    const project = await requireProject(actor, projectId);
    const access = await identityAccess(project, actor.identityId);
    if (!access) {
      throw new ProjectMembershipNotFoundError(
        `You are not a member of this project with ID ${projectId}. Please assign this identity to the project with the appropriate permissions, then try again.`,
      );
    }
    return access;
  }

  return {
    accessFor,

    /** Another identity's access to a project of the actor's org (null: not a member), for boundary checks. */
    async accessOfIdentity(actor: Actor, projectId: string, identityId: string): Promise<ProjectAccess | null> {
      return identityAccess(await requireProject(actor, projectId), identityId);
    },

    async abilityFor(actor: Actor, projectId: string): Promise<ProjectAbility> {
      return (await accessFor(actor, projectId)).ability;
    },

    /**
     * Throws 404 NotFound (no such project in the actor's org), 403 ProjectMembershipNotFound
     * (not a member) or 403 PermissionDenied (details: the actor's rules about `subject`);
     * returns the ability for further checks.
     */
    async assert(
      actor: Actor,
      projectId: string,
      action: string,
      subject: string,
      fields?: ProjectFields,
    ): Promise<ProjectAbility> {
      const { ability } = await accessFor(actor, projectId);
      assertCan(ability, action, subject, fields);
      return ability;
    },

    assertBoundary,
  };
}

export type ProjectPermissions = ReturnType<typeof createProjectPermissions>;
