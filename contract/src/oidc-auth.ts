import { z } from "zod";
import { authMethodEndpoints } from "./auth-method.ts";
import {
  authConfigRecordFields,
  tokenLifetimeDefaults,
  tokenLifetimeOptional,
  ttlWithinMaxOnAttach,
  ttlWithinMaxOnUpdate,
} from "./common.ts";

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

export const oidcAuthEndpoints = authMethodEndpoints({
  key: "oidcAuth",
  name: "oidc-auth",
  label: "OIDC auth",
  envelope: "identityOidcAuth",
  record: IdentityOidcAuthSchema,
  attach: AttachOidcAuthBodySchema,
  update: UpdateOidcAuthBodySchema,
});
