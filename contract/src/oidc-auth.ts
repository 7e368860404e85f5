import { z } from "zod";
import { IssuedAccessTokenSchema } from "./access-tokens.ts";
import { authMethodEndpoints, dryRunLoginEndpoint } from "./auth-method.ts";
import {
  authConfigRecordFields,
  tokenLifetimeDefaults,
  tokenLifetimeOptional,
  ttlWithinMaxOnAttach,
  ttlWithinMaxOnUpdate,
  Uuid,
} from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

export const IdentityOidcAuthSchema = z.object({
  ...authConfigRecordFields,
  oidcDiscoveryUrl: z.string(),
  caCert: z.string().optional(),
  boundIssuer: z.string(),
  boundAudiences: z.string(),
  boundClaims: z.unknown(),
  claimMetadataMapping: z.unknown().optional(),
  boundSubject: z.string(),
});
export type IdentityOidcAuth = z.infer<typeof IdentityOidcAuthSchema>;

/** The configuration as revoke answers it: Infisical leaves out the CA certificate. */
export const RevokedOidcAuthSchema = IdentityOidcAuthSchema.omit({ caCert: true });

export const AttachOidcAuthBodySchema = ttlWithinMaxOnAttach(
  z.object({
    oidcDiscoveryUrl: z.url(),
    caCert: z.string().trim().default(""),
    boundIssuer: z.string().trim().min(1, "The bound issuer is required"),
    boundAudiences: z.string().trim().default("").describe("Comma-separated; globs allowed"),
    boundClaims: z.record(z.string(), z.string()).default({}),
    claimMetadataMapping: z.record(z.string(), z.string()).optional(),
    boundSubject: z.string().trim().default(""),
    ...tokenLifetimeDefaults,
  }),
);

export const UpdateOidcAuthBodySchema = ttlWithinMaxOnUpdate(
  z.object({
    oidcDiscoveryUrl: z.url().optional(),
    caCert: z.string().trim().optional(),
    boundIssuer: z.string().trim().min(1).optional(),
    boundAudiences: z.string().trim().optional().describe("Comma-separated; globs allowed"),
    boundClaims: z.record(z.string(), z.string()).optional(),
    claimMetadataMapping: z.record(z.string(), z.string()).optional(),
    boundSubject: z.string().trim().optional(),
    ...tokenLifetimeOptional,
  }),
);

export const OidcAuthLoginBodySchema = z.object({
  identityId: Uuid.describe("The identity to sign in as"),
  jwt: z.string().trim().min(1, "The identity token is required").describe("A JWT issued by the OIDC provider"),
});

export const oidcAuthEndpoints = [
  ...authMethodEndpoints({
    key: "oidcAuth",
    name: "oidc-auth",
    label: "OIDC auth",
    envelope: "identityOidcAuth",
    record: IdentityOidcAuthSchema,
    revoked: RevokedOidcAuthSchema,
    attach: AttachOidcAuthBodySchema,
    update: UpdateOidcAuthBodySchema,
  }),
  defineEndpoint({
    id: "oidcAuth.login",
    method: "POST",
    path: "/api/v1/auth/oidc-auth/login",
    summary: "Sign in with a JWT from an OIDC provider, checked against its published keys and the bound claims",
    body: OidcAuthLoginBodySchema,
    response: IssuedAccessTokenSchema,
    auth: "none",
  }),
  dryRunLoginEndpoint({
    key: "oidcAuth",
    name: "oidc-auth",
    label: "OIDC auth",
    settings: z.object({
      oidcDiscoveryUrl: z.url().optional(),
      caCert: z.string().trim().optional(),
      boundIssuer: z.string().trim().optional(),
      boundAudiences: z.string().trim().optional(),
      boundClaims: z.record(z.string(), z.string()).optional(),
      claimMetadataMapping: z.record(z.string(), z.string()).optional(),
      boundSubject: z.string().trim().optional(),
    }),
    credential: { jwt: OidcAuthLoginBodySchema.shape.jwt },
  }),
] as const;
