import { type OidcSetup, ResourceName, Uuid } from "@keyhold/contract";
import { z } from "zod";
import type { AttachOidcBody } from "./api";

/**
 * The identity step of the set-up: a new identity or one of the organisation's, and who may sign
 * in as it (an optional bound claim, e.g. groups = platform). Derived from the contract's fields.
 */
export const IdentityStepSchema = z
  .discriminatedUnion("source", [
    z.object({
      source: z.literal("create"),
      name: ResourceName,
      role: z.string().trim().min(1, "Pick a role"),
      claim: z.string().trim(),
      values: z.string().trim(),
    }),
    z.object({
      source: z.literal("existing"),
      identityId: Uuid.or(z.literal("")).refine((id) => id !== "", "Pick an identity"),
      claim: z.string().trim(),
      values: z.string().trim(),
    }),
  ])
  .superRefine((step, ctx) => {
    if (step.claim !== "" && step.values === "") {
      ctx.addIssue({
        code: "custom",
        path: ["values"],
        message: "Enter the values the claim must hold, or clear the claim",
      });
    }
    if (step.claim === "" && step.values !== "") {
      ctx.addIssue({ code: "custom", path: ["claim"], message: "Name the claim these values are matched against" });
    }
  });
export type IdentityStepInput = z.input<typeof IdentityStepSchema>;
export type IdentityStepValues = z.output<typeof IdentityStepSchema>;

export const DEFAULT_IDENTITY_NAME = "sso-people";

export function toIdentityStepValues(identityId: string | undefined): IdentityStepInput {
  return identityId
    ? { source: "existing", identityId, claim: "", values: "" }
    : { source: "create", name: DEFAULT_IDENTITY_NAME, role: "member", claim: "", values: "" };
}

/**
 * An access token lives an hour: each renewal signs in at the provider again, so a person removed
 * there loses the console within the hour at the latest.
 */
export const SSO_TOKEN_TTL = 3600;

/** The e-mail and name claims carried into the token, so audit events and the header name the person. */
export const CLAIM_METADATA_MAPPING = { email: "email", name: "name" };

/** The identity's OIDC auth as the BFF's set-up needs it: this provider, this client, this bound claim. */
export function toOidcAuthBody(setup: OidcSetup, step: IdentityStepValues): AttachOidcBody {
  const issuer = setup.issuer ?? "";
  return {
    oidcDiscoveryUrl: issuer,
    boundIssuer: issuer,
    boundAudiences: setup.clientId ?? "",
    boundClaims: step.claim ? { [step.claim]: step.values } : {},
    claimMetadataMapping: CLAIM_METADATA_MAPPING,
    accessTokenTTL: SSO_TOKEN_TTL,
    accessTokenMaxTTL: SSO_TOKEN_TTL,
  };
}
