import type { Endpoints, ResponseOf } from "@keyhold/contract";
import type { Kysely } from "kysely";
import { findAuthMethod } from "../data/auth-methods.ts";
import { recordLogin } from "../data/identities.ts";
import type { Database } from "../db/schema.ts";
import { nowIso } from "../lib/time.ts";
import { type AccessTokenService, type Actor, TOKEN_AUTH_METHOD } from "./access-tokens.ts";
import { BadRequestError } from "./errors.ts";
import type { IdentityService } from "./identity-service.ts";
import { toAccessTokenRecord } from "./mappers.ts";
import { assertOrgPermission, assertWithinBoundary } from "./permissions.ts";

type CreateTokenResponse = ResponseOf<Endpoints["tokenAuth.createToken"]>;

/** Token auth's own operations; its configuration is served by the auth-method service. */
export function createTokenAuthService(deps: {
  db: Kysely<Database>;
  identities: IdentityService;
  accessTokens: AccessTokenService;
}) {
  const { db, identities, accessTokens } = deps;

  return {
    async createToken(actor: Actor, identityId: string, name: string | undefined): Promise<CreateTokenResponse> {
      assertOrgPermission(actor.ability, "edit", "identity");
      const target = await identities.requireMembership(actor, identityId);
      assertWithinBoundary(actor.ability, target.membership.role, "create-token");
      const config = await findAuthMethod(db, identityId, TOKEN_AUTH_METHOD);
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
