import { createMongoAbility, type MongoAbility, type RawRuleOf } from "@casl/ability";
import { orgRoles } from "@keyhold/contract";
import { BadRequestError, PermissionBoundaryError, PermissionDeniedError } from "./errors.ts";

export type OrgRole = (typeof orgRoles)[number];
export type OrgAction =
  | "manage"
  | "read"
  | "create"
  | "edit"
  | "delete"
  | "grant-privileges"
  | "revoke-auth"
  | "create-token"
  | "get-token"
  | "delete-token";
export type OrgSubject = "all" | "identity" | "audit-logs" | "settings";
export type OrgAbility = MongoAbility<[OrgAction, OrgSubject]>;
type OrgRule = RawRuleOf<OrgAbility>;

/**
 * The built-in organisation roles as CASL rules. Members read identities, the organisation's
 * settings and its audit log (as Infisical's member role does); only admins change settings.
 */
const orgRoleRules: Record<OrgRole, OrgRule[]> = {
  admin: [{ action: "manage", subject: "all" }],
  member: [
    { action: "read", subject: "identity" },
    { action: "read", subject: "audit-logs" },
    { action: "read", subject: "settings" },
  ],
  "no-access": [],
};

export function isOrgRole(role: string): role is OrgRole {
  return (orgRoles as readonly string[]).includes(role);
}

/** The role slug of a new or updated membership; custom org roles are not supported yet. */
export function parseOrgRole(role: string): OrgRole {
  if (!isOrgRole(role)) {
    throw new BadRequestError(`The organisation role "${role}" does not exist; use one of ${orgRoles.join(", ")}`);
  }
  return role;
}

/** Built once per role and process: the built-in roles' rules never change at run time. */
const orgAbilities = new Map<string, OrgAbility>();

export function orgAbilityFor(role: string): OrgAbility {
  const key = isOrgRole(role) ? role : "no-access";
  let ability = orgAbilities.get(key);
  if (!ability) {
    ability = createMongoAbility<OrgAbility>(orgRoleRules[key]);
    orgAbilities.set(key, ability);
  }
  return ability;
}

/** The actor's rules that mention the subject, in the shape the 403 body's `details` carries. */
function rulesAbout(ability: OrgAbility, subject: OrgSubject) {
  return ability.rules
    .filter((rule) => [rule.subject].flat().some((s) => s === subject || s === "all"))
    .map((rule) => ({
      action: rule.action,
      inverted: rule.inverted ?? false,
      subject: rule.subject,
      conditions: rule.conditions ?? null,
    }));
}

export function assertOrgPermission(ability: OrgAbility, action: OrgAction, subject: OrgSubject): void {
  if (ability.cannot(action, subject)) {
    throw new PermissionDeniedError(`You are not allowed to ${action} on ${subject}`, rulesAbout(ability, subject));
  }
}

/**
 * Privilege boundary: an actor may grant a role, or act on an identity holding it, only
 * when the actor already holds every permission of that role.
 */
export function assertWithinBoundary(ability: OrgAbility, targetRole: string, purpose: OrgAction): void {
  const rules = isOrgRole(targetRole) ? orgRoleRules[targetRole] : orgRoleRules.admin;
  const missing = rules
    .flatMap((rule) => [rule.action].flat().map((action) => ({ action, subject: rule.subject })))
    .filter(({ action, subject }) => [subject].flat().some((s) => ability.cannot(action, s)));
  if (missing.length > 0) {
    throw new PermissionBoundaryError(`You cannot ${purpose} for an identity with more privileges than your own`, {
      missingPermissions: missing,
    });
  }
}
