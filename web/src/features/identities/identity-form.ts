import {
  CreateIdentityBodySchema,
  type IdentityMembership,
  IdentityMetadataInputSchema,
  OrgRoleSlug,
} from "@keyhold/contract";
import { z } from "zod";
import type { CreateIdentityBody, UpdateIdentityBody } from "./api";

/**
 * The create and edit form: the contract's create body without the organisation
 * (it comes from the session), with every field present so the form is controlled.
 */
export const IdentityFormSchema = CreateIdentityBodySchema.pick({ name: true })
  .extend({
    role: OrgRoleSlug,
    hasDeleteProtection: z.boolean(),
    metadata: z.array(IdentityMetadataInputSchema),
  })
  .superRefine((values, ctx) => {
    const seen = new Set<string>();
    values.metadata.forEach((entry, index) => {
      if (seen.has(entry.key)) {
        ctx.addIssue({ code: "custom", path: ["metadata", index, "key"], message: "Each key can be used once" });
      }
      seen.add(entry.key);
    });
  });

export type IdentityFormInput = z.input<typeof IdentityFormSchema>;
export type IdentityFormValues = z.output<typeof IdentityFormSchema>;

export const identityFormFields = ["name", "role", "hasDeleteProtection", "metadata"] as const;

export const DEFAULT_ORG_ROLE = "no-access";

/** Form values for a new identity, or for editing an existing one. */
export function toFormValues(membership?: IdentityMembership): IdentityFormInput {
  if (!membership) return { name: "", role: DEFAULT_ORG_ROLE, hasDeleteProtection: false, metadata: [] };
  return {
    name: membership.identity.name,
    role: membership.customRole?.slug ?? membership.role,
    hasDeleteProtection: membership.identity.hasDeleteProtection,
    metadata: (membership.metadata ?? []).map(({ key, value }) => ({ key, value })),
  };
}

export function toCreateBody(values: IdentityFormValues, organizationId: string): CreateIdentityBody {
  return { ...values, organizationId };
}

/** Metadata is sent whole: the server replaces all of it. */
export function toUpdateBody(values: IdentityFormValues): UpdateIdentityBody {
  return { ...values };
}
