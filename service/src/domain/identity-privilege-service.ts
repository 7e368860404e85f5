import { randomBytes, randomUUID } from "node:crypto";
import type { Endpoints } from "@keyhold/contract";
import type { Kysely } from "kysely";
import ms from "ms";
import type { z } from "zod";
import {
  deletePrivilege,
  findPrivilegeById,
  findPrivilegeBySlug,
  insertPrivilege,
  listPrivileges,
  type PrivilegeWithOwner,
  updatePrivilege,
} from "../data/identity-privileges.ts";
import { findIdentityProjectMembership, findOrgProjectBySlug } from "../data/project-access.ts";
import type { Database, ProjectMembershipRow } from "../db/schema.ts";
import { nowIso, toIsoOrNull } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { BadRequestError, NotFoundError } from "./errors.ts";
import { assertCan } from "./project-permissions-engine.ts";
import {
  normalizeRule,
  type ProjectAbility,
  type ProjectPermissions,
  type ProjectRule,
  parseStoredRules,
  serializeRules,
} from "./project-permissions.ts";
import { backfillV1Rules, rulesFromV1 } from "./identity-privilege-v1.ts";
import { privilegeView, summaryView, v1View } from "./identity-privilege-views.ts";

type Body<Id extends keyof Endpoints> = z.output<Endpoints[Id]["body"]>;
type PrivilegeType = Body<"identityPrivileges.create">["type"];

/** Temporary columns from a type: end = start + ms(range), as Infisical computes it. */
export function temporaryColumns(type: PrivilegeType) {
  if (!type.isTemporary) {
    return {
      is_temporary: 0,
      temporary_mode: null,
      temporary_range: null,
      temporary_access_start_time: null,
      temporary_access_end_time: null,
    };
  }
  let range: number | undefined;
  try {
    range = ms(type.temporaryRange as ms.StringValue);
  } catch {
    range = undefined;
  }
  if (range === undefined || !Number.isFinite(range)) {
    throw new BadRequestError(`Invalid temporary range "${type.temporaryRange}": use a duration such as 30m, 1h or 7d`);
  }
  if (range <= 0) throw new BadRequestError("Temporary range must be a positive number");
  const start = Date.parse(type.temporaryAccessStartTime);
  return {
    is_temporary: 1,
    temporary_mode: "relative",
    temporary_range: type.temporaryRange,
    temporary_access_start_time: new Date(start).toISOString(),
    temporary_access_end_time: new Date(start + range).toISOString(),
  };
}

/** A random default slug, as Infisical names privileges created without one. */
function randomSlug(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  const id = [...randomBytes(8)].map((b) => alphabet[b % alphabet.length]).join("");
  return `${id.slice(0, 4)}-${id.slice(4)}`;
}

/** Infisical refuses a secrets rule that mixes the legacy read with the split read actions. */
function assertNoMixedSecretReads(rules: ProjectRule[]): void {
  for (const rule of rules) {
    if (rule.subject !== "secrets" || !rule.action.includes("read")) continue;
    if (rule.action.includes("describeSecret") || rule.action.includes("readValue")) {
      throw new BadRequestError(
        'A secrets rule cannot combine the legacy "read" action with "describeSecret" or "readValue": use one or the other',
      );
    }
  }
}

/** v2 rules as sent, in the stored form; mixed secret reads are refused. */
function rulesFromInput(permissions: Body<"identityPrivileges.create">["permissions"]): ProjectRule[] {
  const rules = permissions.map((rule) => normalizeRule(rule));
  assertNoMixedSecretReads(rules);
  return rules;
}

interface Target {
  ability: ProjectAbility;
  membership: ProjectMembershipRow;
  identityId: string;
}

export function createIdentityPrivilegeService(deps: { db: Kysely<Database>; projectPermissions: ProjectPermissions }) {
  const { db, projectPermissions } = deps;

  /**
   * The actor's ability in the project (after `action` on the target identity is checked) and
   * the target identity's membership there (404 when it has none).
   */
  async function target(actor: Actor, projectId: string, identityId: string, action: "read" | "edit"): Promise<Target> {
    const { ability } = await projectPermissions.accessFor(actor, projectId);
    assertCan(ability, action, "identity", { identityId });
    const membership = await findIdentityProjectMembership(db, projectId, identityId);
    if (!membership) throw new NotFoundError(`Project membership for identity ${identityId} not found`);
    return { ability, membership, identityId };
  }

  async function projectIdOfSlug(actor: Actor, projectSlug: string): Promise<string> {
    const project = await findOrgProjectBySlug(db, actor.orgId, projectSlug);
    if (!project) throw new NotFoundError(`Project with slug '${projectSlug}' not found`);
    return project.id;
  }

  /** A privilege by id, with the actor's ability over its identity; 404 outside the actor's org. */
  async function privilegeById(actor: Actor, id: string, action: "read" | "edit") {
    const row = await findPrivilegeById(db, id);
    if (!row || row.org_id !== actor.orgId || !row.identity_id) {
      throw new NotFoundError(`Privilege with id ${id} not found`);
    }
    const { ability } = await target(actor, row.project_id, row.identity_id, action);
    return { row, ability };
  }

  async function privilegeBySlug(t: Target, slug: string): Promise<PrivilegeWithOwner> {
    const row = await findPrivilegeBySlug(db, t.membership.id, slug);
    if (!row) throw new NotFoundError(`Privilege with slug ${slug} not found for identity ${t.identityId}`);
    return row;
  }

  async function reload(id: string): Promise<PrivilegeWithOwner> {
    const row = await findPrivilegeById(db, id);
    if (!row) throw new NotFoundError(`Privilege with id ${id} not found`);
    return row;
  }

  async function create(t: Target, slug: string | undefined, rules: ProjectRule[], type: PrivilegeType) {
    projectPermissions.assertBoundary(t.ability, rules);
    const now = nowIso();
    const id = randomUUID();
    const name = slug ?? randomSlug();
    const inserted = await insertPrivilege(db, {
      id,
      project_membership_id: t.membership.id,
      slug: name,
      permissions: serializeRules(rules),
      ...temporaryColumns(type),
      created_at: now,
      updated_at: now,
    });
    if (!inserted) throw new BadRequestError(`Additional privilege with name ${name} exists`);
    return reload(id);
  }

  /** Applies a rename, new rules and a new type; the boundary is checked on the new rules. */
  async function update(
    row: PrivilegeWithOwner,
    ability: ProjectAbility,
    changes: { slug?: string; rules?: ProjectRule[]; type?: PrivilegeType },
  ) {
    if (changes.rules) projectPermissions.assertBoundary(ability, changes.rules);
    if (changes.slug !== undefined && changes.slug !== row.slug) {
      if (await findPrivilegeBySlug(db, row.project_membership_id, changes.slug)) {
        throw new BadRequestError(`Additional privilege with name ${changes.slug} exists`);
      }
    }
    await updatePrivilege(db, row.id, {
      ...(changes.slug !== undefined && { slug: changes.slug }),
      ...(changes.rules && { permissions: serializeRules(changes.rules) }),
      ...(changes.type && temporaryColumns(changes.type)),
      updated_at: nowIso(),
    });
    return reload(row.id);
  }

  /** v1 bodies name the temporary fields loosely: missing start or range while temporary is a 400. */
  function v1Type(
    isTemporary: boolean,
    fields: { temporaryRange?: string | null; temporaryAccessStartTime?: string | null },
  ): PrivilegeType {
    if (!isTemporary) return { isTemporary: false };
    if (!fields.temporaryRange || !fields.temporaryAccessStartTime) {
      throw new BadRequestError("Temporary mode expects start time and range");
    }
    return {
      isTemporary: true,
      temporaryMode: "relative",
      temporaryRange: fields.temporaryRange,
      temporaryAccessStartTime: fields.temporaryAccessStartTime,
    };
  }

  return {
    async create(actor: Actor, body: Body<"identityPrivileges.create">) {
      const rules = rulesFromInput(body.permissions);
      const t = await target(actor, body.projectId, body.identityId, "edit");
      return privilegeView(await create(t, body.slug, rules, body.type));
    },

    async update(actor: Actor, id: string, body: Body<"identityPrivileges.update">) {
      const rules = body.permissions && rulesFromInput(body.permissions);
      const { row, ability } = await privilegeById(actor, id, "edit");
      return privilegeView(await update(row, ability, { slug: body.slug, rules, type: body.type }));
    },

    async get(actor: Actor, id: string) {
      return privilegeView((await privilegeById(actor, id, "read")).row);
    },

    /** Removing is checked like granting: nobody removes what they could not have granted. */
    async delete(actor: Actor, id: string) {
      const { row, ability } = await privilegeById(actor, id, "edit");
      projectPermissions.assertBoundary(ability, parseStoredRules(row.permissions));
      await deletePrivilege(db, row.id);
      return privilegeView(row);
    },

    async list(actor: Actor, identityId: string, projectId: string) {
      const t = await target(actor, projectId, identityId, "read");
      return (await listPrivileges(db, t.membership.id)).map(summaryView);
    },

    async getBySlug(actor: Actor, slug: string, identityId: string, projectSlug: string) {
      const t = await target(actor, await projectIdOfSlug(actor, projectSlug), identityId, "read");
      return privilegeView(await privilegeBySlug(t, slug));
    },

    async createV1(
      actor: Actor,
      body: Body<"identityPrivileges.createPermanentV1"> | Body<"identityPrivileges.createTemporaryV1">,
    ) {
      const rules = backfillV1Rules(rulesFromV1(body));
      const type = "temporaryRange" in body ? v1Type(true, body) : v1Type(false, {});
      const t = await target(actor, await projectIdOfSlug(actor, body.projectSlug), body.identityId, "edit");
      return v1View(await create(t, body.slug, rules, type));
    },

    async updateV1(actor: Actor, body: Body<"identityPrivileges.updateV1">) {
      const t = await target(actor, await projectIdOfSlug(actor, body.projectSlug), body.identityId, "edit");
      const row = await privilegeBySlug(t, body.privilegeSlug);
      const details = body.privilegeDetails;
      const given = details.privilegePermission || details.permissions;
      const rules = given ? backfillV1Rules(rulesFromV1(details)) : undefined;
      const temporaryGiven =
        details.isTemporary !== undefined || details.temporaryRange !== undefined || details.temporaryAccessStartTime;
      const type = temporaryGiven
        ? v1Type(details.isTemporary ?? row.is_temporary === 1, {
            temporaryRange: details.temporaryRange ?? row.temporary_range,
            temporaryAccessStartTime: details.temporaryAccessStartTime ?? toIsoOrNull(row.temporary_access_start_time),
          })
        : undefined;
      return v1View(await update(row, t.ability, { slug: details.slug, rules, type }));
    },

    async deleteV1(actor: Actor, body: Body<"identityPrivileges.deleteV1">) {
      const t = await target(actor, await projectIdOfSlug(actor, body.projectSlug), body.identityId, "edit");
      const row = await privilegeBySlug(t, body.privilegeSlug);
      projectPermissions.assertBoundary(t.ability, parseStoredRules(row.permissions));
      await deletePrivilege(db, row.id);
      return v1View(row);
    },

    async listV1(actor: Actor, identityId: string, projectSlug: string) {
      const t = await target(actor, await projectIdOfSlug(actor, projectSlug), identityId, "read");
      return (await listPrivileges(db, t.membership.id)).map(v1View);
    },

    async getBySlugV1(actor: Actor, slug: string, identityId: string, projectSlug: string) {
      const t = await target(actor, await projectIdOfSlug(actor, projectSlug), identityId, "read");
      return v1View(await privilegeBySlug(t, slug));
    },
  };
}

export type IdentityPrivilegeService = ReturnType<typeof createIdentityPrivilegeService>;
