import { randomUUID } from "node:crypto";
import type {
  CreateIdentityBodySchema,
  Endpoints,
  IdentityMembership,
  SearchIdentitiesBodySchema,
  UpdateIdentityBodySchema,
} from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import {
  deleteIdentityRow,
  findMembership,
  findMembershipWithMetadata,
  insertIdentity,
  listMemberships,
  type MembershipWithIdentity,
  replaceMetadata,
  updateIdentityRow,
  updateMembershipRole,
} from "../data/identities.ts";
import type { Database } from "../db/schema.ts";
import { activeLockoutMethods } from "../data/lockouts.ts";
import { nowIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { BadRequestError, ForbiddenError, NotFoundError } from "./errors.ts";
import { type IdentityWithAuthMethods, toIdentity, toMembership } from "./mappers.ts";
import { projectMembershipsOfIdentity } from "./membership-views.ts";
import { assertOrgPermission, assertWithinBoundary, parseOrgRole } from "./permissions.ts";

type CreateIdentityInput = z.output<typeof CreateIdentityBodySchema>;
type UpdateIdentityInput = z.output<typeof UpdateIdentityBodySchema>;
type SearchInput = z.output<typeof SearchIdentitiesBodySchema>;
type OrgMembershipsQuery = z.output<Endpoints["identities.listOrgMemberships"]["query"]>;

export function createIdentityService(deps: { db: Kysely<Database> }) {
  const { db } = deps;

  function assertOwnOrg(actor: Actor, orgId: string): void {
    if (orgId !== actor.orgId) throw new ForbiddenError("You can only manage identities of your own organisation");
  }

  /** The identity's membership in the actor's org; identities of other orgs are simply not found. */
  async function requireMembership(actor: Actor, identityId: string): Promise<MembershipWithIdentity> {
    const found = await findMembership(db, actor.orgId, identityId);
    if (!found) throw new NotFoundError(`No identity with id ${identityId} in this organisation`);
    return found;
  }

  /** The identity's membership in the org with its metadata; identities of other orgs are simply not found. */
  async function requireMembershipWithMetadata(orgId: string, identityId: string) {
    const found = await findMembershipWithMetadata(db, orgId, identityId);
    if (!found) throw new NotFoundError(`No identity with id ${identityId} in this organisation`);
    return found;
  }

  async function identityView(orgId: string, identityId: string): Promise<IdentityWithAuthMethods> {
    const found = await requireMembershipWithMetadata(orgId, identityId);
    return toIdentity(found.identity, found.metadata, found.authMethods);
  }

  return {
    requireMembership,

    async list(actor: Actor, orgId: string): Promise<{ identities: IdentityMembership[]; totalCount: number }> {
      assertOwnOrg(actor, orgId);
      assertOrgPermission(actor.ability, "read", "identity");
      const { memberships } = await listMemberships(db, orgId);
      const identities = memberships.map((m) => toMembership(m, m.authMethods));
      return { identities, totalCount: identities.length };
    },

    async search(actor: Actor, input: SearchInput) {
      assertOrgPermission(actor.ability, "read", "identity");
      const { name, role } = input.search ?? {};
      const { memberships, totalCount } = await listMemberships(db, actor.orgId, {
        nameContains: typeof name === "string" ? name : name?.$contains,
        nameIn:
          typeof name === "string" ? undefined : (name?.$in ?? (name?.$eq !== undefined ? [name.$eq] : undefined)),
        roleIn: typeof role === "string" ? [role] : (role?.$in ?? (role?.$eq !== undefined ? [role.$eq] : undefined)),
        orderBy: input.orderBy,
        orderDirection: input.orderDirection,
        limit: input.limit,
        offset: input.offset,
      });
      return { identities: memberships.map((m) => toMembership(m, m.authMethods)), totalCount };
    },

    async listOrgMemberships(actor: Actor, orgId: string, input: OrgMembershipsQuery) {
      assertOwnOrg(actor, orgId);
      assertOrgPermission(actor.ability, "read", "identity");
      const { memberships, totalCount } = await listMemberships(db, orgId, {
        nameContains: input.search,
        orderBy: input.orderBy,
        orderDirection: input.orderDirection,
        limit: input.limit,
        offset: input.offset,
      });
      const identityMemberships = memberships.map((m) => {
        const view = toMembership(m, m.authMethods);
        return {
          ...view,
          identity: { name: m.identity.name, id: m.identity.id, orgId: m.identity.org_id, authMethods: m.authMethods },
        };
      });
      return { identityMemberships, totalCount };
    },

    /** The projects the identity belongs to, with its roles in each. */
    async listProjectMemberships(actor: Actor, identityId: string) {
      assertOrgPermission(actor.ability, "read", "identity");
      const found = await requireMembership(actor, identityId);
      return { identityMemberships: await projectMembershipsOfIdentity(db, found) };
    },

    async get(actor: Actor, identityId: string): Promise<IdentityMembership> {
      assertOrgPermission(actor.ability, "read", "identity");
      const found = await requireMembershipWithMetadata(actor.orgId, identityId);
      // Only universal auth locks an identity out: other identities skip that read.
      const lockouts = found.authMethods.includes("universal-auth")
        ? await activeLockoutMethods(db, identityId, Date.now())
        : [];
      return toMembership(found, found.authMethods, found.metadata, lockouts);
    },

    async create(actor: Actor, input: CreateIdentityInput): Promise<IdentityWithAuthMethods> {
      assertOwnOrg(actor, input.organizationId);
      assertOrgPermission(actor.ability, "create", "identity");
      const role = parseOrgRole(input.role);
      if (role !== "no-access") assertWithinBoundary(actor.ability, role, "grant-privileges");
      const id = randomUUID();
      const now = nowIso();
      await db.transaction().execute(async (trx) => {
        await insertIdentity(
          trx,
          { id, orgId: actor.orgId, name: input.name, hasDeleteProtection: input.hasDeleteProtection, role },
          now,
        );
        await replaceMetadata(trx, actor.orgId, id, input.metadata ?? [], now);
      });
      return identityView(actor.orgId, id);
    },

    async update(actor: Actor, identityId: string, input: UpdateIdentityInput): Promise<IdentityWithAuthMethods> {
      assertOrgPermission(actor.ability, "edit", "identity");
      const found = await requireMembership(actor, identityId);
      const role = input.role === undefined ? undefined : parseOrgRole(input.role);
      // An identity may not change its own role: the last admin could otherwise lock everyone out.
      if (role !== undefined && role !== found.membership.role && identityId === actor.identityId) {
        throw new BadRequestError("You cannot change the organization role of the identity you are signed in as");
      }
      if (role !== undefined && role !== found.membership.role) {
        assertWithinBoundary(actor.ability, found.membership.role, "grant-privileges");
        assertWithinBoundary(actor.ability, role, "grant-privileges");
      }
      const now = nowIso();
      await db.transaction().execute(async (trx) => {
        await updateIdentityRow(trx, identityId, input, now);
        if (role !== undefined) await updateMembershipRole(trx, found.membership.id, role, now);
        if (input.metadata !== undefined) await replaceMetadata(trx, actor.orgId, identityId, input.metadata, now);
      });
      return identityView(actor.orgId, identityId);
    },

    async delete(actor: Actor, identityId: string): Promise<IdentityWithAuthMethods> {
      assertOrgPermission(actor.ability, "delete", "identity");
      const found = await requireMembership(actor, identityId);
      if (identityId === actor.identityId) {
        throw new BadRequestError("You cannot delete the identity you are signed in as");
      }
      if (found.identity.has_delete_protection === 1) {
        throw new BadRequestError("This identity has delete protection; turn it off before deleting the identity");
      }
      // Infisical answers a delete with the bare identity record, without its metadata.
      const { metadata: _metadata, ...view } = await identityView(actor.orgId, identityId);
      await deleteIdentityRow(db, identityId);
      return view;
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
