import { z } from "zod";
import {
  authConfigRecordFields,
  IdentityIdParams,
  NullableTimestamp,
  queryInteger,
  Timestamp,
  tokenLifetimeDefaults,
  tokenLifetimeOptional,
  ttlWithinMaxOnAttach,
  ttlWithinMaxOnUpdate,
  Uuid,
} from "./common.ts";
import { IssuedAccessTokenSchema, RevokedMessageSchema } from "./access-tokens.ts";
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
  subOrganizationId: z.string().nullable().describe("Always null: this service has no sub-organisations"),
});
export type AccessTokenRecord = z.infer<typeof AccessTokenRecordSchema>;

export const UpdateTokenAuthBodySchema = ttlWithinMaxOnUpdate(z.object({ ...tokenLifetimeOptional }));

const permission = (action: string) => ({ scope: "org" as const, subject: "identity", action });

export const TokenIdParams = z.object({ tokenId: Uuid.describe("The access token's id (its record's id)") });

const TokenName = z.string().trim().max(64);

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
    body: z.object({ name: TokenName.optional() }),
    response: IssuedAccessTokenSchema.extend({
      tokenData: AccessTokenRecordSchema.optional().describe(
        "The new token's record; servers before 2025 leave it out (the token list has it)",
      ),
    }),
    permission: permission("edit"),
  }),
  defineEndpoint({
    id: "tokenAuth.listTokens",
    method: "GET",
    path: "/api/v1/auth/token-auth/identities/{identityId}/tokens",
    summary: "List the token-auth tokens of an identity, revoked ones included, most recently updated first",
    params: IdentityIdParams,
    query: z.object({
      offset: queryInteger(0, 100, 0),
      limit: queryInteger(1, 100, 20),
    }),
    response: z.object({ tokens: z.array(AccessTokenRecordSchema) }),
    permission: permission("read"),
  }),
  defineEndpoint({
    id: "tokenAuth.updateToken",
    method: "PATCH",
    path: "/api/v1/auth/token-auth/tokens/{tokenId}",
    summary: "Rename a token-auth token",
    params: TokenIdParams,
    body: z.object({ name: TokenName.optional() }),
    response: z.object({ token: AccessTokenRecordSchema }),
    permission: permission("edit"),
  }),
  defineEndpoint({
    id: "tokenAuth.revokeToken",
    method: "POST",
    path: "/api/v1/auth/token-auth/tokens/{tokenId}/revoke",
    summary: "Revoke a token-auth token; it is refused from the next request on",
    params: TokenIdParams,
    response: RevokedMessageSchema,
    permission: permission("edit"),
  }),
] as const;
