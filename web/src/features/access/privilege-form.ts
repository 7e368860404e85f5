import {
  type IdentityPrivilege,
  PermissionRuleInputSchema,
  type PermissionRuleInput,
  slugSchema,
} from "@keyhold/contract";
import { z } from "zod";
import type { CreatePrivilegeBody, UpdatePrivilegeBody } from "./api";
import {
  fromStored,
  PERMANENT,
  refineTemporaryAccess,
  temporaryAccessShape,
  toTemporaryWire,
} from "./temporary-access";

/** An additional privilege as the form edits it: a name, its rules, and for how long. */
export const PrivilegeFormSchema = z
  .object({
    slug: z.union([z.literal(""), slugSchema(1, 60)]),
    permissions: z.array(PermissionRuleInputSchema).min(1, "Add at least one rule"),
    ...temporaryAccessShape,
  })
  .superRefine(refineTemporaryAccess);
export type PrivilegeFormInput = z.input<typeof PrivilegeFormSchema>;
export type PrivilegeForm = z.output<typeof PrivilegeFormSchema>;

export const privilegeFormFields = ["slug", "permissions", "temporaryRange", "startAt"] as const;

/** A stored rule as the editor takes it back: conditions are the contract's condition record. */
function toRuleInput(rule: IdentityPrivilege["permissions"][number]): PermissionRuleInput {
  const { subject, action, inverted, conditions } = rule;
  return {
    subject,
    action,
    ...(inverted ? { inverted } : {}),
    ...(conditions && typeof conditions === "object" && Object.keys(conditions).length > 0
      ? { conditions: conditions as PermissionRuleInput["conditions"] }
      : {}),
  };
}

/** Form values for a new privilege, or for editing a stored one (keeping its start and range). */
export function toPrivilegeFormValues(privilege?: IdentityPrivilege): PrivilegeFormInput {
  if (!privilege) return { slug: "", permissions: [], ...PERMANENT };
  return { slug: privilege.slug, permissions: privilege.permissions.map(toRuleInput), ...fromStored(privilege) };
}

export function toCreatePrivilegeBody(
  values: PrivilegeForm,
  target: { projectId: string; identityId: string },
  now: Date = new Date(),
): CreatePrivilegeBody {
  const { slug, permissions, ...access } = values;
  return { ...target, ...(slug ? { slug } : {}), permissions, type: toTemporaryWire(access, now) };
}

/** The server needs the slug on every update; a stored privilege always has one. */
export function toUpdatePrivilegeBody(
  values: PrivilegeForm,
  currentSlug: string,
  now: Date = new Date(),
): UpdatePrivilegeBody {
  const { slug, permissions, ...access } = values;
  return { slug: slug || currentSlug, permissions, type: toTemporaryWire(access, now) };
}
