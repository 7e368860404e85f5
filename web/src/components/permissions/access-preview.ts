import { isGrantActive, type ProjectRule, rulesForIdentity } from "@keyhold/contract/permission-engine";
import {
  type AccessChange,
  diffAccess,
  type EnvironmentScope,
  evaluateScope,
  type GrantSource,
  grantChangeMoments,
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
  /** Absent for a privilege not saved yet. */
  id?: string;
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

/** A role or privilege that ends, and when: the moments a time slider stops at. */
export interface GrantEnd {
  at: number;
  names: string[];
}

/**
 * The moments after `now` when `member`'s grants change (a temporary role or privilege ends),
 * each with what ends then, by the service's rule (`grantChangeMoments`).
 */
export function grantEnds(member: ProjectMember, now: number): GrantEnd[] {
  const grants = [
    ...member.roles.map((held) => ({ name: `role ${heldRoleSlug(held)}`, ...temporaryWindow(held) })),
    ...member.privileges.map((privilege) => ({ name: `privilege ${privilege.slug}`, ...temporaryWindow(privilege) })),
  ];
  return grantChangeMoments(grants, now).map((at) => ({
    at,
    names: grants
      .filter(
        (grant) => grant.temporaryAccessEndTime !== null && new Date(grant.temporaryAccessEndTime).getTime() === at,
      )
      .map((grant) => grant.name),
  }));
}

export interface MemberChanges {
  member: Pick<ProjectMember, "kind" | "id" | "name">;
  changes: AccessChange[];
}
