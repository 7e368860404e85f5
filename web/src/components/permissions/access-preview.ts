import { isGrantActive, type ProjectRule, rulesForIdentity } from "@keyhold/contract/permission-engine";
import {
  type AccessChange,
  diffAccess,
  type EnvironmentScope,
  evaluateScope,
  type GrantSource,
} from "@keyhold/contract/permission-grid";

/*
 * A member's access before and after a change, evaluated with the service's own rules
 * (@keyhold/contract/permission-grid). Loaded lazily: only a preview needs the engine's globs.
 */

/** A role a membership holds, as membership listings show it. */
export interface HeldRole {
  role: string;
  customRoleId?: string | null | undefined;
  customRoleSlug?: string | null | undefined;
  isTemporary: boolean;
  temporaryAccessEndTime?: string | null | undefined;
}

/** An additional privilege with its rules and temporary window. */
export interface HeldPrivilege {
  slug: string;
  isTemporary: boolean;
  temporaryAccessEndTime?: string | null | undefined;
  permissions: ProjectRule[];
}

/** A user or identity of the project with everything that grants it access there. */
export interface ProjectMember {
  kind: "identity" | "user";
  id: string;
  name: string;
  roles: readonly HeldRole[];
  privileges: readonly HeldPrivilege[];
}

export interface RoleRules {
  name: string;
  rules: ProjectRule[];
}

/** The slug a held role goes by: a custom role's own slug, or the predefined role's. */
export function heldRoleSlug(held: HeldRole): string {
  return held.customRoleSlug || held.role;
}

const temporaryWindow = (grant: { isTemporary: boolean; temporaryAccessEndTime?: string | null | undefined }) => ({
  isTemporary: grant.isTemporary,
  temporaryAccessEndTime: grant.temporaryAccessEndTime ?? null,
});

/**
 * What grants `member` access at `now`: its roles and privileges that count then (expired
 * temporary ones do not), with `{{identity.id}}` templates applied. `rulesOf` gives each role's
 * rules by slug; a role it does not know is an error (a preview must not quietly leave one out).
 */
export function grantSources(
  member: ProjectMember,
  rulesOf: (slug: string) => RoleRules | undefined,
  now: number,
): GrantSource[] {
  const roles = member.roles
    .filter((held) => isGrantActive(temporaryWindow(held), now))
    .map((held): GrantSource => {
      const slug = heldRoleSlug(held);
      const role = rulesOf(slug);
      if (!role) throw new Error(`The rules of the role "${slug}" could not be read`);
      return { kind: "role", slug, name: role.name, rules: rulesForIdentity(role.rules, member.id) };
    });
  const privileges = member.privileges
    .filter((privilege) => isGrantActive(temporaryWindow(privilege), now))
    .map(
      (privilege): GrantSource => ({
        kind: "privilege",
        slug: privilege.slug,
        name: privilege.slug,
        rules: rulesForIdentity(privilege.permissions, member.id),
      }),
    );
  return [...roles, ...privileges];
}

/** What a member gains and loses when its grants go from `before` to `after`. */
export function accessChanges(
  before: readonly GrantSource[],
  after: readonly GrantSource[],
  scope: readonly EnvironmentScope[],
): AccessChange[] {
  return diffAccess(evaluateScope(before, scope), evaluateScope(after, scope));
}

export interface MemberChanges {
  member: Pick<ProjectMember, "kind" | "id" | "name">;
  changes: AccessChange[];
}
