import { z } from "zod";
import {
  authConfigRecordFields,
  IdentityIdParams,
  NullableTimestamp,
  Timestamp,
  tokenLifetimeDefaults,
  tokenLifetimeOptional,
  ttlWithinMaxOnAttach,
  ttlWithinMaxOnUpdate,
  Uuid,
} from "./common.ts";
import { authMethodEndpoints } from "./auth-method.ts";
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

export const UpdateTokenAuthBodySchema = ttlWithinMaxOnUpdate(z.object({ ...tokenLifetimeOptional }));

const permission = (action: string) => ({ scope: "org" as const, subject: "identity", action });

export const tokenAuthEndpoints = [
  ...authMethodEndpoints({
    key: "tokenAuth",
    name: "token-auth",
    label: "token auth",
    envelope: "identityTokenAuth",
    record: IdentityTokenAuthSchema,
    attach: AttachTokenAuthBodySchema,
    update: UpdateTokenAuthBodySchema,
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
