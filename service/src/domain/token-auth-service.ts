import { randomUUID } from "node:crypto";
import type { AttachTokenAuthBodySchema, Endpoints, IdentityTokenAuth, ResponseOf } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { deleteTokensOfAuthMethod } from "../data/access-tokens.ts";
import { recordLogin } from "../data/identities.ts";
import { deleteTokenAuth, findTokenAuth, insertTokenAuth, type StoredTrustedIp } from "../data/token-auths.ts";
import type { Database } from "../db/schema.ts";
import { nowIso } from "../lib/time.ts";
import { parseTrustedIp } from "../lib/trusted-ips.ts";
import { type AccessTokenService, type Actor, TOKEN_AUTH_METHOD } from "./access-tokens.ts";
import { BadRequestError } from "./errors.ts";
import type { IdentityService } from "./identity-service.ts";
import { toAccessTokenRecord, toTokenAuth } from "./mappers.ts";
import { assertOrgPermission, assertWithinBoundary } from "./permissions.ts";

type AttachInput = z.output<typeof AttachTokenAuthBodySchema>;
type CreateTokenResponse = ResponseOf<Endpoints["tokenAuth.createToken"]>;

/** Checks shared by every auth method's lifetime settings, repeated here whatever the schema caught. */
export function checkTokenLifetime(ttl: number, maxTtl: number): void {
  if (maxTtl > 0 && ttl > maxTtl) {
    throw new BadRequestError("The access token TTL cannot be greater than the access token max TTL");
  }
}

export function parseTrustedIps(entries: readonly { ipAddress: string }[]): StoredTrustedIp[] {
  return entries.map(({ ipAddress }) => {
    const parsed = parseTrustedIp(ipAddress);
    if (!parsed) throw new BadRequestError(`"${ipAddress}" is not a valid IPv4 or IPv6 address or CIDR block`);
    return parsed;
  });
}

export function createTokenAuthService(deps: {
  db: Kysely<Database>;
  identities: IdentityService;
  accessTokens: AccessTokenService;
}) {
  const { db, identities, accessTokens } = deps;

  return {
    async attach(actor: Actor, identityId: string, input: AttachInput): Promise<IdentityTokenAuth> {
      assertOrgPermission(actor.ability, "create", "identity");
      await identities.requireMembership(actor, identityId);
      checkTokenLifetime(input.accessTokenTTL, input.accessTokenMaxTTL);
      const trustedIps = parseTrustedIps(input.accessTokenTrustedIps);
      const row = await insertTokenAuth(
        db,
        {
          id: randomUUID(),
          identityId,
          accessTokenTTL: input.accessTokenTTL,
          accessTokenMaxTTL: input.accessTokenMaxTTL,
          accessTokenNumUsesLimit: input.accessTokenNumUsesLimit,
          accessTokenTrustedIps: trustedIps,
        },
        nowIso(),
      );
      if (!row) throw new BadRequestError("Token auth is already attached to this identity");
      return toTokenAuth(row);
    },

    /** Removes token auth and, in the same transaction, every token it issued for the identity. */
    async revoke(actor: Actor, identityId: string): Promise<IdentityTokenAuth> {
      assertOrgPermission(actor.ability, "edit", "identity");
      const target = await identities.requireMembership(actor, identityId);
      assertWithinBoundary(actor.ability, target.membership.role, "revoke-auth");
      if (identityId === actor.identityId) {
        throw new BadRequestError(
          "You cannot remove the auth method of the identity you are signed in as; another admin can do it",
        );
      }
      const deleted = await db.transaction().execute(async (trx) => {
        const config = await deleteTokenAuth(trx, identityId);
        if (config) await deleteTokensOfAuthMethod(trx, identityId, TOKEN_AUTH_METHOD);
        return config;
      });
      if (!deleted) throw new BadRequestError("Token auth is not attached to this identity");
      return toTokenAuth(deleted);
    },

    async createToken(actor: Actor, identityId: string, name: string | undefined): Promise<CreateTokenResponse> {
      assertOrgPermission(actor.ability, "edit", "identity");
      const target = await identities.requireMembership(actor, identityId);
      assertWithinBoundary(actor.ability, target.membership.role, "create-token");
      const config = await findTokenAuth(db, identityId);
      if (!config) throw new BadRequestError("Token auth is not attached to this identity");
      const { accessToken, row } = await accessTokens.issue({
        identityId,
        authMethod: TOKEN_AUTH_METHOD,
        name: name ?? null,
        accessTokenTTL: config.access_token_ttl,
        accessTokenMaxTTL: config.access_token_max_ttl,
        accessTokenNumUsesLimit: config.access_token_num_uses_limit,
      });
      await recordLogin(db, target.membership.id, TOKEN_AUTH_METHOD, nowIso());
      return {
        accessToken,
        expiresIn: config.access_token_ttl,
        accessTokenMaxTTL: config.access_token_max_ttl,
        tokenType: "Bearer",
        tokenData: toAccessTokenRecord(row),
      };
    },
  };
}

export type TokenAuthService = ReturnType<typeof createTokenAuthService>;
