import type { AccessTokenRecord, Endpoints, ResponseOf } from "@keyhold/contract";
import type { Kysely } from "kysely";
import {
  findAccessToken,
  listTokensOfAuthMethod,
  revokeAccessToken,
  updateAccessToken,
} from "../data/access-tokens.ts";
import { findAuthMethod } from "../data/auth-methods.ts";
import { findMembership, recordLogin } from "../data/identities.ts";
import type { Database } from "../db/schema.ts";
import { nowIso } from "../lib/time.ts";
import { type AccessTokenService, type Actor, TOKEN_AUTH_METHOD } from "./access-tokens.ts";
import { BadRequestError, NotFoundError } from "./errors.ts";
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

  /**
   * A token-auth token of an identity in the actor's organisation, after the edit checks; any
   * other token (another method's, another organisation's, or none) is not found.
   */
  async function tokenForChange(actor: Actor, tokenId: string, purpose: "create-token" | "delete-token") {
    assertOrgPermission(actor.ability, "edit", "identity");
    const row = await findAccessToken(db, tokenId);
    const target = row?.auth_method === TOKEN_AUTH_METHOD && (await findMembership(db, actor.orgId, row.identity_id));
    if (!row || !target) throw new NotFoundError(`Token with ID ${tokenId} not found`);
    assertWithinBoundary(actor.ability, target.membership.role, purpose);
    return row;
  }

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

    async listTokens(
      actor: Actor,
      identityId: string,
      page: { offset: number; limit: number },
    ): Promise<AccessTokenRecord[]> {
      assertOrgPermission(actor.ability, "read", "identity");
      await identities.requireMembership(actor, identityId);
      const rows = await listTokensOfAuthMethod(db, identityId, TOKEN_AUTH_METHOD, page);
      return rows.map(toAccessTokenRecord);
    },

    async updateToken(actor: Actor, tokenId: string, name: string | undefined): Promise<AccessTokenRecord> {
      const row = await tokenForChange(actor, tokenId, "create-token");
      const updated = await updateAccessToken(db, row.id, {
        ...(name !== undefined && { name }),
        updated_at: nowIso(),
      });
      if (!updated) throw new NotFoundError(`Token with ID ${tokenId} not found`);
      return toAccessTokenRecord(updated);
    },

    /** The row is kept, marked revoked (the list shows it); the next request with it is refused. */
    async revokeToken(actor: Actor, tokenId: string): Promise<{ message: string }> {
      const row = await tokenForChange(actor, tokenId, "delete-token");
      if (!(await revokeAccessToken(db, row.id, nowIso()))) {
        throw new NotFoundError(`Token with ID ${tokenId} not found or already revoked`);
      }
      return { message: "Successfully revoked access token" };
    },
  };
}

export type TokenAuthService = ReturnType<typeof createTokenAuthService>;
