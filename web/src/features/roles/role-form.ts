import {
  CreateProjectRoleBodySchema,
  type PermissionRuleInput,
  PermissionRuleInputSchema,
  type ProjectRoleSummary,
  reservedProjectRoleSlugs,
} from "@keyhold/contract";
import slugify from "@sindresorhus/slugify";
import { z } from "zod";
import type { CreateRoleBody, UpdateRoleBody } from "./api";

const ROLE_SLUG_MAX = 64;

/** The predefined roles every project has; the server synthesises them and refuses to change them. */
export function isBuiltInRole(slug: string): boolean {
  return (reservedProjectRoleSlugs as readonly string[]).includes(slug);
}

/** Built-in roles first, in the server's order, then custom roles by slug (as Infisical lists them). */
export function sortRoles<T extends Pick<ProjectRoleSummary, "slug">>(roles: readonly T[]): T[] {
  const builtIn = roles.filter((role) => isBuiltInRole(role.slug));
  const custom = roles.filter((role) => !isBuiltInRole(role.slug)).sort((a, b) => a.slug.localeCompare(b.slug));
  return [...builtIn, ...custom];
}

/** The slug a role of this name would get: transliterated, lowercase, single hyphens, at most 64 characters. */
export function roleSlugFrom(name: string): string {
  return slugify(name).slice(0, ROLE_SLUG_MAX).replace(/-+$/, "");
}

/** Name, slug and description: the contract's rules, with every field present so the form is controlled. */
export const RoleFormSchema = z.object({
  name: CreateProjectRoleBodySchema.shape.name,
  slug: CreateProjectRoleBodySchema.shape.slug,
  description: z.string().trim().max(500, "Description must be at most 500 characters"),
});
export type RoleFormInput = z.input<typeof RoleFormSchema>;
export type RoleFormValues = z.output<typeof RoleFormSchema>;
export const roleFormFields = ["name", "slug", "description"] as const;

type RoleDetails = Pick<ProjectRoleSummary, "name" | "slug" | "description">;

/** Empty for a new role, the role's own values for editing, or a copy's for duplicating. */
export function toFormValues(role?: RoleDetails, { duplicate = false } = {}): RoleFormInput {
  if (!role) return { name: "", slug: "", description: "" };
  if (!duplicate) return { name: role.name, slug: role.slug, description: role.description ?? "" };
  const name = `${role.name} copy`.slice(0, 64);
  return { name, slug: roleSlugFrom(`${role.slug}-copy`), description: role.description ?? "" };
}

export function toCreateBody(values: RoleFormValues, permissions: PermissionRuleInput[]): CreateRoleBody {
  return {
    name: values.name,
    slug: values.slug,
    ...(values.description ? { description: values.description } : {}),
    permissions,
  };
}

/** Only what changed, so an edit of the details never rewrites the rules. */
export function toUpdateBody(values: RoleFormValues, role: RoleDetails): UpdateRoleBody {
  return {
    ...(values.name !== role.name && { name: values.name }),
    ...(values.slug !== role.slug && { slug: values.slug }),
    ...(values.description !== (role.description ?? "") && { description: values.description || null }),
  };
}

/**
 * The rules a copy can take: a real server's role may hold rules for subjects this console's
 * contract does not know (newer features), which the create call would refuse; they are left out.
 */
export function copyableRules(rules: readonly PermissionRuleInput[]): { rules: PermissionRuleInput[]; left: number } {
  const kept = rules.filter((rule) => PermissionRuleInputSchema.safeParse(rule).success);
  return { rules: kept, left: rules.length - kept.length };
}

export function copySummary({ rules, left }: { rules: unknown[]; left: number }, sourceName: string): string {
  const count = (n: number) => (n === 1 ? "1 rule" : `${n} rules`);
  const copies = `Copies ${count(rules.length)} from ${sourceName}.`;
  return left === 0
    ? copies
    : `${copies} ${count(left)} for subjects this console does not know ${left === 1 ? "is" : "are"} left out.`;
}
