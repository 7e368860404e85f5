import type { MembershipRole, MembershipRoleInput, ProjectRoleSummary } from "@keyhold/contract";
import { z } from "zod";
import type { IdentityRolesBody } from "./api";
import {
  fromStored,
  PERMANENT,
  refineTemporaryAccess,
  temporaryAccessShape,
  toTemporaryWire,
} from "./temporary-access";

/** One role of a membership as the form edits it: which role, and for how long. */
export const RoleEntrySchema = z
  .object({ role: z.string().min(1, "Choose a role"), ...temporaryAccessShape })
  .superRefine(refineTemporaryAccess);
export type RoleEntry = z.infer<typeof RoleEntrySchema>;

const RoleEntriesSchema = z
  .array(RoleEntrySchema)
  .min(1, "Give at least one role")
  .superRefine((entries, ctx) => {
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      if (entry.role && seen.has(entry.role)) {
        ctx.addIssue({ code: "custom", path: [index, "role"], message: "This role is already in the list" });
      }
      seen.add(entry.role);
    });
  });

export const IdentityRolesFormSchema = z.object({ roles: RoleEntriesSchema });
export type IdentityRolesForm = z.infer<typeof IdentityRolesFormSchema>;

export const AddIdentityFormSchema = z.object({
  identityId: z.string().min(1, "Choose an identity"),
  roles: RoleEntriesSchema,
});
export type AddIdentityForm = z.infer<typeof AddIdentityFormSchema>;

export const DEFAULT_PROJECT_ROLE = "member";

export function newRoleEntry(role = ""): RoleEntry {
  return { role, ...PERMANENT };
}

/** The slug a stored role is chosen by: a custom role's own slug, else the predefined slug. */
export function roleSlugOf(role: Pick<MembershipRole, "role" | "customRoleSlug">): string {
  return role.role === "custom" ? (role.customRoleSlug ?? "") : role.role;
}

/** The name to show for a stored role: a custom role's name, else the predefined role's name. */
export function roleNameOf(
  role: Pick<MembershipRole, "role" | "customRoleSlug" | "customRoleName">,
  roles: readonly Pick<ProjectRoleSummary, "slug" | "name">[] = [],
): string {
  if (role.role === "custom") return role.customRoleName ?? role.customRoleSlug ?? "Custom role";
  return roles.find((r) => r.slug === role.role)?.name ?? role.role;
}

/** Form values for a membership's current roles, each keeping its recorded start and range. */
export function toRoleEntries(roles: readonly MembershipRole[]): RoleEntry[] {
  return roles.map((role) => ({ role: roleSlugOf(role), ...fromStored(role) }));
}

/** The roles as the add and update bodies carry them; "now" is the moment of sending. */
export function toRolesBody(entries: readonly RoleEntry[], now: Date = new Date()): IdentityRolesBody {
  const roles: MembershipRoleInput[] = entries.map(({ role, ...access }) => ({
    role,
    ...toTemporaryWire(access, now),
  }));
  return { roles };
}
