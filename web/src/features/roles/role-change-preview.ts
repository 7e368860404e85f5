import type { ProjectRule } from "@keyhold/contract/permission-engine";
import type { EnvironmentScope } from "@keyhold/contract/permission-grid";
import {
  accessChanges,
  grantSources,
  heldRoleSlug,
  type MemberChanges,
  type ProjectMember,
  type RoleRules,
} from "@/components/permissions/access-preview";

/** A role as its holders' memberships name it. */
export interface EditedRole {
  id: string;
  slug: string;
  name: string;
}

/** Whether a member holds `role` (permanently or for a while, expired or not). */
export function holdsRole(member: Pick<ProjectMember, "roles">, role: EditedRole): boolean {
  return member.roles.some((held) => held.customRoleId === role.id || heldRoleSlug(held) === role.slug);
}

/**
 * For each member holding `role`, what changes when the role's rules become `draft`, evaluated
 * with all its other roles and privileges (a loss another grant covers is no loss) at `now`.
 */
export function previewRoleChange(input: {
  role: EditedRole;
  draft: ProjectRule[];
  members: readonly ProjectMember[];
  rulesOf: (slug: string) => RoleRules | undefined;
  scope: readonly EnvironmentScope[];
  now: number;
}): MemberChanges[] {
  const { role, draft, rulesOf, scope, now } = input;
  const withDraft = (slug: string) => (slug === role.slug ? { name: role.name, rules: draft } : rulesOf(slug));
  return input.members
    .filter((member) => holdsRole(member, role))
    .map((member) => ({
      member: { kind: member.kind, id: member.id, name: member.name },
      changes: accessChanges(grantSources(member, rulesOf, now), grantSources(member, withDraft, now), scope),
    }));
}
