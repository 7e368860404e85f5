import type { Endpoints, ProjectMembership } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { findMembership } from "../data/identities.ts";
import {
  deleteMembership,
  findIdentityMembership,
  findProjectInOrg,
  findUserMemberships,
  insertMembership,
  insertMembershipRoles,
  listIdentityMemberships,
  listUserMemberships,
  replaceMembershipRoles,
} from "../data/project-memberships.ts";
import { ensureUsersByEmail, findUsersByUsernames } from "../data/users.ts";
import type { Database } from "../db/schema.ts";
import { nowIso, toIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { BadRequestError, NotFoundError } from "./errors.ts";
import { assertCanGrant, assertWithin, quoted, resolveRoles, type RoleInput } from "./membership-roles.ts";
import {
  rolesByMembership,
  toIdentityMembershipRecord,
  toProjectIdentityMembership,
  toRoleRow,
} from "./membership-views.ts";
import type { ProjectAbility, ProjectPermissions } from "./project-permissions.ts";

type AddInput = z.output<Endpoints["identityMemberships.add"]["body"]>;
type ListQuery = z.output<Endpoints["identityMemberships.list"]["query"]>;
type InviteInput = z.output<Endpoints["projectUsers.invite"]["body"]>;

export function createMembershipService(deps: { db: Kysely<Database>; projectPermissions: ProjectPermissions }) {
  const { db, projectPermissions } = deps;

  async function requireProject(actor: Actor, projectId: string) {
    const project = await findProjectInOrg(db, actor.orgId, projectId);
    if (!project) throw new NotFoundError(`Project with ID '${projectId}' not found`);
    return project;
  }

  /** The target identity's current rules must be within the actor's: no acting on the more privileged. */
  async function assertNotMorePrivileged(
    actor: Actor,
    ability: ProjectAbility,
    projectId: string,
    identityId: string,
    verb: string,
  ): Promise<void> {
    const target = await projectPermissions.accessOfIdentity(actor, projectId, identityId);
    if (target)
      assertWithin(ability, target.rules, `You cannot ${verb} an identity with more privileges than your own`);
  }

  async function requireIdentityMembership(projectId: string, identityId: string) {
    const membership = await findIdentityMembership(db, projectId, identityId);
    if (!membership) {
      throw new NotFoundError(`Identity with ID '${identityId}' is not a member of project with ID '${projectId}'`);
    }
    return membership;
  }

  return {
    // ---- identities ----

    async addIdentity(actor: Actor, projectId: string, identityId: string, input: AddInput) {
      const ability = await projectPermissions.assert(actor, projectId, "create", "identity", { identityId });
      const project = await requireProject(actor, projectId);
      if (!(await findMembership(db, actor.orgId, identityId))) {
        throw new NotFoundError(`No identity with id ${identityId} in this organisation`);
      }
      if (await findIdentityMembership(db, project.id, identityId)) {
        throw new BadRequestError("Identity is already a member");
      }
      const inputs = input.roles ?? [{ role: input.role ?? "no-access", isTemporary: false }];
      const roles = await resolveRoles(db, project.id, inputs);
      assertCanGrant(ability, roles);
      const now = nowIso();
      const membership = await db.transaction().execute(async (trx) => {
        const row = await insertMembership(trx, { projectId: project.id, identityId }, now);
        // Another request added it between the check above and this insert.
        if (!row) throw new BadRequestError("Identity is already a member");
        await insertMembershipRoles(
          trx,
          row.id,
          roles.map((r) => r.row),
          now,
        );
        return row;
      });
      return toIdentityMembershipRecord(membership);
    },

    async listIdentities(actor: Actor, projectId: string, query: ListQuery) {
      await projectPermissions.assert(actor, projectId, "read", "identity");
      const project = await requireProject(actor, projectId);
      const { memberships, totalCount } = await listIdentityMemberships(db, project.id, query);
      const roles = await rolesByMembership(
        db,
        memberships.map((m) => m.membership.id),
      );
      const identityMemberships = memberships.map(({ membership, identityName, authMethods }) =>
        toProjectIdentityMembership(
          membership,
          { id: membership.identity_id ?? "", name: identityName, authMethods },
          roles(membership.id),
          project,
        ),
      );
      return { identityMemberships, totalCount };
    },

    async getIdentity(actor: Actor, projectId: string, identityId: string) {
      await projectPermissions.assert(actor, projectId, "read", "identity", { identityId });
      const project = await requireProject(actor, projectId);
      const { memberships } = await listIdentityMemberships(db, project.id, { identityId });
      const [found] = memberships;
      if (!found) {
        throw new NotFoundError(`Identity with ID '${identityId}' is not a member of project with ID '${projectId}'`);
      }
      const roles = await rolesByMembership(db, [found.membership.id]);
      return toProjectIdentityMembership(
        found.membership,
        { id: identityId, name: found.identityName, authMethods: found.authMethods },
        roles(found.membership.id),
        project,
      );
    },

    /** Replaces the whole role set. */
    async updateIdentity(actor: Actor, projectId: string, identityId: string, inputs: readonly RoleInput[]) {
      const ability = await projectPermissions.assert(actor, projectId, "edit", "identity", { identityId });
      const membership = await requireIdentityMembership(projectId, identityId);
      const roles = await resolveRoles(db, projectId, inputs);
      assertCanGrant(ability, roles);
      await assertNotMorePrivileged(actor, ability, projectId, identityId, "change the roles of");
      const rows = await db.transaction().execute(async (trx) =>
        replaceMembershipRoles(
          trx,
          membership.id,
          roles.map((r) => r.row),
          nowIso(),
        ),
      );
      return rows.map(toRoleRow);
    },

    /** Removes the membership; its roles and additional privileges go with it. */
    async removeIdentity(actor: Actor, projectId: string, identityId: string) {
      const ability = await projectPermissions.assert(actor, projectId, "delete", "identity", { identityId });
      const membership = await requireIdentityMembership(projectId, identityId);
      await assertNotMorePrivileged(actor, ability, projectId, identityId, "remove");
      await deleteMembership(db, membership.id);
      return toIdentityMembershipRecord(membership);
    },

    // ---- users ----

    async listUsers(actor: Actor, projectId: string): Promise<ProjectMembership[]> {
      await projectPermissions.assert(actor, projectId, "read", "member");
      const project = await requireProject(actor, projectId);
      const rows = await listUserMemberships(db, project.id);
      const roles = await rolesByMembership(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((row) => ({
        id: row.id,
        createdAt: toIso(row.created_at),
        userId: row.user_id ?? "",
        projectId: row.project_id,
        user: {
          username: row.user_username,
          email: row.user_email,
          firstName: row.user_first_name,
          lastName: row.user_last_name,
          id: row.user_id ?? "",
        },
        roles: roles(row.id),
      }));
    },

    /**
     * Adds users by e-mail (creating a minimal user for a new address) or by username (which
     * must exist), each with the given roles ("member" by default).
     */
    async inviteUsers(actor: Actor, projectId: string, input: InviteInput) {
      const ability = await projectPermissions.assert(actor, projectId, "create", "member");
      const project = await requireProject(actor, projectId);
      const slugs = input.roleSlugs ?? ["member"];
      const roles = await resolveRoles(
        db,
        project.id,
        slugs.map((role) => ({ role, isTemporary: false })),
      );
      assertCanGrant(ability, roles);
      const emails = [...new Set(input.emails)];
      const usernames = [...new Set(input.usernames)];
      const named = await findUsersByUsernames(db, usernames);
      const unknown = usernames.filter((u) => !named.some((user) => user.username === u));
      if (unknown.length > 0) throw new NotFoundError(`No user with username ${quoted(unknown)}`);

      const now = nowIso();
      const memberships = await db.transaction().execute(async (trx) => {
        const byId = new Map([...(await ensureUsersByEmail(trx, emails, now)), ...named].map((u) => [u.id, u]));
        const users = [...byId.values()];
        const existing = await findUserMemberships(
          trx,
          project.id,
          users.map((u) => u.id),
        );
        if (existing.length > 0) {
          const names = users.filter((u) => existing.some((m) => m.user_id === u.id)).map((u) => u.username);
          throw new BadRequestError(`Already members of this project: ${quoted(names)}`);
        }
        const inserted = [];
        for (const user of users) {
          const row = await insertMembership(trx, { projectId: project.id, userId: user.id }, now);
          if (!row) throw new BadRequestError(`Already members of this project: "${user.username}"`);
          await insertMembershipRoles(
            trx,
            row.id,
            roles.map((r) => r.row),
            now,
          );
          inserted.push(row);
        }
        return inserted;
      });
      return memberships.map((row) => ({
        id: row.id,
        createdAt: toIso(row.created_at),
        updatedAt: toIso(row.updated_at),
        userId: row.user_id ?? "",
        projectId: row.project_id,
      }));
    },
  };
}

export type MembershipService = ReturnType<typeof createMembershipService>;
