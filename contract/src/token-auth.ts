import { z } from "zod";
import {
  authConfigRecordFields,
  IdentityIdParams,
  NullableTimestamp,
  Timestamp,
  tokenLifetimeDefaults,
  ttlWithinMaxOnAttach,
  Uuid,
} from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

export const IdentityTokenAuthSchema = z.object({
  ...authConfigRecordFields,
  accessTokenPeriod: z.number().int(),
});
export type IdentityTokenAuth = z.infer<typeof IdentityTokenAuthSchema>;

export const AttachTokenAuthBodySchema = ttlWithinMaxOnAttach(z.object({ ...tokenLifetimeDefaults }));

/** The database record behind an access token (never the token itself). */
export const AccessTokenRecordSchema = z.object({
  id: Uuid,
  identityId: Uuid,
  name: z.string().nullable().optional(),
  authMethod: z.string(),
  accessTokenTTL: z.number().int(),
  accessTokenMaxTTL: z.number().int(),
  accessTokenNumUses: z.number().int(),
  accessTokenNumUsesLimit: z.number().int(),
  accessTokenPeriod: z.number().int(),
  accessTokenLastUsedAt: NullableTimestamp.optional(),
  accessTokenLastRenewedAt: NullableTimestamp.optional(),
  isAccessTokenRevoked: z.boolean(),
  identityUAClientSecretId: z.string().nullable().optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type AccessTokenRecord = z.infer<typeof AccessTokenRecordSchema>;

const response = z.object({ identityTokenAuth: IdentityTokenAuthSchema });
const permission = (action: string) => ({ scope: "org" as const, subject: "identity", action });

export const tokenAuthEndpoints = [
  defineEndpoint({
    id: "tokenAuth.attach",
    method: "POST",
    path: "/api/v1/auth/token-auth/identities/{identityId}",
    summary: "Attach token auth to an identity",
    params: IdentityIdParams,
    body: AttachTokenAuthBodySchema,
    response,
    permission: permission("create"),
  }),
  defineEndpoint({
    id: "tokenAuth.revoke",
    method: "DELETE",
    path: "/api/v1/auth/token-auth/identities/{identityId}",
    summary: "Remove token auth from an identity, revoking every token it issued",
    params: IdentityIdParams,
    response,
    permission: permission("edit"),
  }),
  defineEndpoint({
    id: "tokenAuth.createToken",
    method: "POST",
    path: "/api/v1/auth/token-auth/identities/{identityId}/tokens",
    summary: "Issue an access token for an identity with token auth",
    params: IdentityIdParams,
    body: z.object({ name: z.string().trim().max(64).optional() }),
    response: z.object({
      accessToken: z.string(),
      expiresIn: z.number().int(),
      accessTokenMaxTTL: z.number().int(),
      tokenType: z.literal("Bearer"),
      tokenData: AccessTokenRecordSchema.optional().describe(
        "The new token's record; servers before 2025 leave it out (the token list has it)",
      ),
    }),
    permission: permission("edit"),
  }),
] as const;
