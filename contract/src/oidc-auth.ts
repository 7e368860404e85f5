import { z } from "zod";
import { authConfigRecordFields, IdentityIdParams, tokenLifetimeOptional, ttlWithinMaxOnUpdate } from "./common.ts";
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

const response = z.object({ identityOidcAuth: IdentityOidcAuthSchema });
const permission = (action: string) => ({ scope: "org" as const, subject: "identity", action });

export const oidcAuthEndpoints = [
  defineEndpoint({
    id: "oidcAuth.update",
    method: "PATCH",
    path: "/api/v1/auth/oidc-auth/identities/{identityId}",
    summary: "Update an identity's OIDC auth",
    params: IdentityIdParams,
    body: UpdateOidcAuthBodySchema,
    response,
    permission: permission("edit"),
  }),
  defineEndpoint({
    id: "oidcAuth.get",
    method: "GET",
    path: "/api/v1/auth/oidc-auth/identities/{identityId}",
    summary: "Read an identity's OIDC auth",
    params: IdentityIdParams,
    response,
    permission: permission("read"),
  }),
] as const;
