import { z } from "zod";
import { IssuedAccessTokenSchema } from "./access-tokens.ts";
import { authMethodEndpoints } from "./auth-method.ts";
import {
  authConfigRecordFields,
  IdentityIdParams,
  MAX_TOKEN_SECONDS,
  Timestamp,
  tokenLifetimeDefaults,
  tokenLifetimeOptional,
  TrustedIpRecordSchema,
  TrustedIpsInputSchema,
  ALLOW_ALL_IPS,
  ttlWithinMaxOnAttach,
  ttlWithinMaxOnUpdate,
  Uuid,
  wholeNumber,
} from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

export const IdentityUniversalAuthSchema = z.object({
  ...authConfigRecordFields,
  clientId: Uuid,
  clientSecretTrustedIps: z.array(TrustedIpRecordSchema),
  accessTokenPeriod: z.number().int(),
  lockoutEnabled: z.boolean(),
  lockoutThreshold: z.number().int(),
  lockoutDurationSeconds: z.number().int(),
  lockoutCounterResetSeconds: z.number().int(),
});
export type IdentityUniversalAuth = z.infer<typeof IdentityUniversalAuthSchema>;

const lockout = {
  lockoutEnabled: z.boolean(),
  lockoutThreshold: wholeNumber(1, 30),
  lockoutDurationSeconds: wholeNumber(30, 86_400),
  lockoutCounterResetSeconds: wholeNumber(5, 3_600),
};

export const AttachUniversalAuthBodySchema = ttlWithinMaxOnAttach(
  z.object({
    clientSecretTrustedIps: TrustedIpsInputSchema.default(ALLOW_ALL_IPS),
    lockoutEnabled: lockout.lockoutEnabled.default(true),
    lockoutThreshold: lockout.lockoutThreshold.default(3),
    lockoutDurationSeconds: lockout.lockoutDurationSeconds.default(300),
    lockoutCounterResetSeconds: lockout.lockoutCounterResetSeconds.default(30),
    ...tokenLifetimeDefaults,
  }),
);

export const UpdateUniversalAuthBodySchema = ttlWithinMaxOnUpdate(
  z.object({
    clientSecretTrustedIps: TrustedIpsInputSchema.optional(),
    lockoutEnabled: lockout.lockoutEnabled.optional(),
    lockoutThreshold: lockout.lockoutThreshold.optional(),
    lockoutDurationSeconds: lockout.lockoutDurationSeconds.optional(),
    lockoutCounterResetSeconds: lockout.lockoutCounterResetSeconds.optional(),
    ...tokenLifetimeOptional,
  }),
);

/** A client secret's record: never the secret itself, only the first characters to recognise it by. */
export const ClientSecretRecordSchema = z.object({
  id: Uuid,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  description: z.string(),
  clientSecretPrefix: z.string().describe("The secret's first four characters"),
  clientSecretNumUses: z.number().int(),
  clientSecretNumUsesLimit: z.number().int().describe("Logins allowed with the secret; 0 means unlimited"),
  clientSecretTTL: z.number().int().describe("Seconds the secret is valid from its creation; 0 means forever"),
  identityUAId: Uuid.describe("The universal-auth configuration the secret belongs to"),
  isClientSecretRevoked: z.boolean(),
});
export type ClientSecretRecord = z.infer<typeof ClientSecretRecordSchema>;

export const CreateClientSecretBodySchema = z.object({
  description: z.string().trim().max(256).default(""),
  numUsesLimit: wholeNumber(0).default(0).describe("Logins allowed with the secret; 0 means unlimited"),
  ttl: wholeNumber(0, MAX_TOKEN_SECONDS).default(0).describe("Seconds the secret is valid; 0: forever"),
});

export const ClientSecretIdParams = IdentityIdParams.extend({ clientSecretId: Uuid.describe("The client secret") });

export const UniversalAuthLoginBodySchema = z.object({
  clientId: z.string().trim().min(1, "Client ID is required"),
  clientSecret: z.string().trim().min(1, "Client secret is required"),
});

const permission = (action: string) => ({ scope: "org" as const, subject: "identity", action });
const clientSecretsPath = "/api/v1/auth/universal-auth/identities/{identityId}/client-secrets";

export const universalAuthEndpoints = [
  ...authMethodEndpoints({
    key: "universalAuth",
    name: "universal-auth",
    label: "universal auth",
    envelope: "identityUniversalAuth",
    record: IdentityUniversalAuthSchema,
    attach: AttachUniversalAuthBodySchema,
    update: UpdateUniversalAuthBodySchema,
  }),
  defineEndpoint({
    id: "universalAuth.createClientSecret",
    method: "POST",
    path: clientSecretsPath,
    summary: "Create a client secret for an identity's universal auth; the secret is shown only in this answer",
    params: IdentityIdParams,
    body: CreateClientSecretBodySchema,
    response: z.object({ clientSecret: z.string(), clientSecretData: ClientSecretRecordSchema }),
    permission: permission("create"),
  }),
  defineEndpoint({
    id: "universalAuth.listClientSecrets",
    method: "GET",
    path: clientSecretsPath,
    summary: "List the client secrets of an identity's universal auth that are not revoked",
    params: IdentityIdParams,
    response: z.object({ clientSecretData: z.array(ClientSecretRecordSchema) }),
    permission: permission("read"),
  }),
  defineEndpoint({
    id: "universalAuth.getClientSecret",
    method: "GET",
    path: `${clientSecretsPath}/{clientSecretId}`,
    summary: "Read a client secret's record",
    params: ClientSecretIdParams,
    response: z.object({ clientSecretData: ClientSecretRecordSchema }),
    permission: permission("read"),
  }),
  defineEndpoint({
    id: "universalAuth.revokeClientSecret",
    method: "POST",
    path: `${clientSecretsPath}/{clientSecretId}/revoke`,
    summary: "Revoke a client secret; logins with it are refused from then on",
    params: ClientSecretIdParams,
    response: z.object({ clientSecretData: ClientSecretRecordSchema }),
    permission: permission("delete"),
  }),
  defineEndpoint({
    id: "universalAuth.clearLockouts",
    method: "POST",
    path: "/api/v1/auth/universal-auth/identities/{identityId}/clear-lockouts",
    summary: "Lift the identity's universal-auth lockouts after failed logins; answers how many were cleared",
    params: IdentityIdParams,
    response: z.object({ deleted: z.number().int() }),
    permission: permission("edit"),
  }),
  defineEndpoint({
    id: "universalAuth.login",
    method: "POST",
    path: "/api/v1/auth/universal-auth/login",
    summary: "Sign in with a universal-auth client id and client secret",
    body: UniversalAuthLoginBodySchema,
    response: IssuedAccessTokenSchema,
    auth: "none",
  }),
] as const;
