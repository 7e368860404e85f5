import { hkdfSync, randomUUID } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Kysely } from "kysely";
import { z } from "zod";
import { consumeUse, deleteAccessToken, findAccessToken, insertAccessToken } from "../data/access-tokens.ts";
import { findOwnMembership } from "../data/identities.ts";
import { findTokenAuth, type StoredTrustedIp } from "../data/token-auths.ts";
import type { AccessTokenRow, Database } from "../db/schema.ts";
import { nowIso, toMillis } from "../lib/time.ts";
import { isIpTrusted } from "../lib/trusted-ips.ts";
import { ForbiddenError, TokenError, UnauthorizedError } from "./errors.ts";
import { type OrgAbility, orgAbilityFor } from "./permissions.ts";

export const TOKEN_AUTH_METHOD = "token-auth";

/** The claims of an identity access token, as Infisical's tokens carry them. */
const AccessTokenClaimsSchema = z.object({
  identityId: z.string().min(1),
  identityAccessTokenId: z.string().min(1),
  authTokenType: z.literal("identityAccessToken"),
});

/** Who is calling: resolved from a valid access token on every authenticated request. */
export interface Actor {
  identityId: string;
  orgId: string;
  membershipId: string;
  role: string;
  ability: OrgAbility;
  accessTokenId: string;
  authMethod: string;
}

export interface IssueTokenInput {
  identityId: string;
  authMethod: string;
  name: string | null;
  accessTokenTTL: number;
  accessTokenMaxTTL: number;
  accessTokenNumUsesLimit: number;
}

/**
 * The HS256 signing key, derived from the root key with a purpose label, so the root key
 * itself never signs anything and instances sharing the root key verify each other's tokens.
 */
export function deriveTokenSigningKey(rootKey: Buffer): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", rootKey, "keyhold", "keyhold/identity-access-token/hs256/v1", 32));
}

export function createAccessTokenService(deps: { db: Kysely<Database>; signingKey: Uint8Array }) {
  const { db, signingKey } = deps;

  async function sign(row: AccessTokenRow): Promise<string> {
    const issuedAt = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({
      identityId: row.identity_id,
      identityAccessTokenId: row.id,
      authTokenType: "identityAccessToken",
    })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuedAt(issuedAt);
    // A TTL of 0 means a token without an expiry claim.
    if (row.access_token_ttl > 0) jwt.setExpirationTime(issuedAt + row.access_token_ttl);
    return jwt.sign(signingKey);
  }

  async function verify(token: string): Promise<z.infer<typeof AccessTokenClaimsSchema>> {
    try {
      const { payload } = await jwtVerify(token, signingKey, { algorithms: ["HS256"] });
      const claims = AccessTokenClaimsSchema.safeParse(payload);
      if (!claims.success) throw new TokenError("This token is not an identity access token");
      return claims.data;
    } catch (error) {
      if (error instanceof TokenError) throw error;
      if (error instanceof joseErrors.JWTExpired) {
        throw new TokenError("This access token has expired; issue or renew a token to continue");
      }
      throw new TokenError("This access token is malformed or was not issued by this service");
    }
  }

  async function trustedIpsOf(row: AccessTokenRow): Promise<StoredTrustedIp[] | undefined> {
    switch (row.auth_method) {
      case TOKEN_AUTH_METHOD: {
        const config = await findTokenAuth(db, row.identity_id);
        return config && (JSON.parse(config.access_token_trusted_ips) as StoredTrustedIp[]);
      }
      default:
        return undefined;
    }
  }

  return {
    /** Inserts the token's row (in `executor`, a transaction when given) and signs the JWT. */
    async issue(
      input: IssueTokenInput,
      executor: Kysely<Database> = db,
    ): Promise<{ accessToken: string; row: AccessTokenRow }> {
      const now = nowIso();
      const row = await insertAccessToken(executor, {
        id: randomUUID(),
        identity_id: input.identityId,
        name: input.name,
        auth_method: input.authMethod,
        access_token_ttl: input.accessTokenTTL,
        access_token_max_ttl: input.accessTokenMaxTTL,
        access_token_num_uses: 0,
        access_token_num_uses_limit: input.accessTokenNumUsesLimit,
        access_token_period: 0,
        access_token_last_used_at: null,
        access_token_last_renewed_at: null,
        is_access_token_revoked: 0,
        identity_ua_client_secret_id: null,
        created_at: now,
        updated_at: now,
      });
      return { accessToken: await sign(row), row };
    },

    /**
     * Resolves the caller from an Authorization header, enforcing on every request:
     * signature and expiry, revocation, TTL, org membership, trusted IPs, and finally the
     * number-of-uses limit (counted last, so a refused request never spends a use).
     */
    async authenticate(authorization: string | undefined, callerIp: string): Promise<Actor> {
      if (!authorization) throw new UnauthorizedError("Missing access token: send an Authorization: Bearer header");
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match?.[1]) throw new UnauthorizedError("The Authorization header must use the Bearer scheme");
      const claims = await verify(match[1]);

      const row = await findAccessToken(db, claims.identityAccessTokenId);
      if (!row || row.is_access_token_revoked === 1 || row.identity_id !== claims.identityId) {
        throw new UnauthorizedError("This access token has been revoked");
      }
      if (row.access_token_ttl > 0) {
        const since = toMillis(row.access_token_last_renewed_at ?? row.created_at);
        if (Date.now() > since + row.access_token_ttl * 1000) {
          await deleteAccessToken(db, row.id);
          throw new UnauthorizedError("This access token has outlived its TTL");
        }
      }

      const membership = await findOwnMembership(db, row.identity_id);
      if (!membership) throw new ForbiddenError("This identity no longer belongs to the organisation");

      const trustedIps = await trustedIpsOf(row);
      if (!trustedIps) throw new UnauthorizedError("The auth method that issued this token has been removed");
      if (!isIpTrusted(callerIp, trustedIps)) {
        throw new ForbiddenError("This access token may not be used from your IP address");
      }

      if (!(await consumeUse(db, row.id, nowIso()))) {
        await deleteAccessToken(db, row.id);
        throw new UnauthorizedError("This access token has reached its number-of-uses limit");
      }

      return {
        identityId: row.identity_id,
        orgId: membership.membership.org_id,
        membershipId: membership.membership.id,
        role: membership.membership.role,
        ability: orgAbilityFor(membership.membership.role),
        accessTokenId: row.id,
        authMethod: row.auth_method,
      };
    },
  };
}

export type AccessTokenService = ReturnType<typeof createAccessTokenService>;
