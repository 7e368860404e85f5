import { hkdfSync, randomUUID, webcrypto } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import {
  consumeUse,
  deleteAccessToken,
  findAccessToken,
  findTokenForRequest,
  insertAccessToken,
  markRenewed,
  revokeAccessToken,
} from "../data/access-tokens.ts";
import type { AuthMethodName } from "../data/auth-methods.ts";
import type { AccessTokenRow, Database } from "../db/schema.ts";
import { nowIso, toMillis } from "../lib/time.ts";
import { trustedIpMatcher } from "../lib/trusted-ips.ts";
import { ForbiddenError, TokenError, UnauthorizedError } from "./errors.ts";
import { type OrgAbility, orgAbilityFor } from "./permissions.ts";
import type { TokenUsage } from "./token-usage.ts";

export const TOKEN_AUTH_METHOD = "token-auth" satisfies AuthMethodName;

/** The claims of an identity access token, as Infisical's tokens carry them. */
const AccessTokenClaimsSchema = z.object({
  identityId: z.string().min(1),
  identityAccessTokenId: z.string().min(1),
  authTokenType: z.literal("identityAccessToken"),
});

type AccessTokenClaims = z.infer<typeof AccessTokenClaimsSchema>;

interface VerifiedToken {
  claims: AccessTokenClaims;
  exp: number | undefined;
}

/** Who is calling: resolved from a valid access token on every authenticated request. */
export interface Actor {
  identityId: string;
  orgId: string;
  membershipId: string;
  role: string;
  ability: OrgAbility;
  accessTokenId: string;
  authMethod: string;
  /**
   * The claims an OIDC login's claimMetadataMapping put on the token (JSON text), kept as read so
   * that only an audit event that names the actor parses it; null for every other token.
   */
  claimMetadata: string | null;
}

export interface IssueTokenInput {
  identityId: string;
  authMethod: string;
  name: string | null;
  accessTokenTTL: number;
  accessTokenMaxTTL: number;
  accessTokenNumUsesLimit: number;
  /** The universal-auth client secret the token was issued for, if any. */
  clientSecretId?: string | null;
  /** Claims an OIDC login's claimMetadataMapping mapped (name → value), recorded with the token's events. */
  claimMetadata?: Record<string, string> | null;
}

/** A signed token and the lifetime it was given, as every sign-in answers. */
export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  accessTokenMaxTTL: number;
  tokenType: "Bearer";
}

/**
 * The HS256 signing key, derived from the root key with a purpose label, so the root key
 * itself never signs anything and instances sharing the root key verify each other's tokens.
 */
export function deriveTokenSigningKey(rootKey: Buffer): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", rootKey, "keyhold", "keyhold/identity-access-token/hs256/v1", 32));
}

export function createAccessTokenService(deps: { db: Kysely<Database>; signingKey: Uint8Array; usage: TokenUsage }) {
  const { db, usage } = deps;
  // Imported once: jose would otherwise turn the raw bytes into a key on every verification.
  const signingKey = webcrypto.subtle.importKey("raw", deps.signingKey, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  /**
   * Tokens whose signature has been checked, with their claims. A signature over the same bytes
   * with the same key stays valid, so only the expiry is checked again; revocation, TTL, uses
   * and trusted IPs are read from the database on every request regardless.
   */
  const verified = new LRUCache<string, VerifiedToken>({ max: 10_000 });

  async function sign(row: AccessTokenRow): Promise<string> {
    const issuedAt = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({
      identityId: row.identity_id,
      identityAccessTokenId: row.id,
      authTokenType: "identityAccessToken",
      ...(row.identity_ua_client_secret_id && { clientSecretId: row.identity_ua_client_secret_id }),
    })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuedAt(issuedAt);
    // A TTL of 0 means a token without an expiry claim.
    if (row.access_token_ttl > 0) jwt.setExpirationTime(issuedAt + row.access_token_ttl);
    return jwt.sign(await signingKey);
  }

  async function verify(token: string): Promise<AccessTokenClaims> {
    const known = verified.get(token);
    if (known) {
      // jose's rule: a token is expired from its exp second on.
      if (known.exp !== undefined && Math.floor(Date.now() / 1000) >= known.exp) {
        throw new TokenError("This access token has expired; issue or renew a token to continue");
      }
      return known.claims;
    }
    try {
      const { payload } = await jwtVerify(token, await signingKey, { algorithms: ["HS256"] });
      const claims = AccessTokenClaimsSchema.safeParse(payload);
      if (!claims.success) throw new TokenError("This token is not an identity access token");
      verified.set(token, { claims: claims.data, exp: payload.exp });
      return claims.data;
    } catch (error) {
      if (error instanceof TokenError) throw error;
      if (error instanceof joseErrors.JWTExpired) {
        throw new TokenError("This access token has expired; issue or renew a token to continue");
      }
      throw new TokenError("This access token is malformed or was not issued by this service");
    }
  }

  const bearerOf = async (row: AccessTokenRow): Promise<IssuedToken> => ({
    accessToken: await sign(row),
    expiresIn: row.access_token_ttl,
    accessTokenMaxTTL: row.access_token_max_ttl,
    tokenType: "Bearer",
  });

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
        identity_ua_client_secret_id: input.clientSecretId ?? null,
        claim_metadata: input.claimMetadata ? JSON.stringify(input.claimMetadata) : null,
        created_at: now,
        updated_at: now,
      });
      return { accessToken: await sign(row), row };
    },

    /**
     * A new JWT for the same token row, its TTL counted again from now. Refused (401) when the
     * token is revoked, out of uses or past its TTL, and when the renewed lifetime would end
     * after the max TTL, measured from the token's creation: renewal is refused, never clamped.
     * A token past its max TTL is deleted; one merely too close to it keeps the time it has left.
     */
    async renew(accessToken: string): Promise<IssuedToken> {
      const claims = await verify(accessToken);
      const row = await findAccessToken(db, claims.identityAccessTokenId);
      if (!row || row.is_access_token_revoked === 1 || row.identity_id !== claims.identityId) {
        throw new UnauthorizedError("This access token has been revoked");
      }
      const now = Date.now();
      const ttlMs = row.access_token_ttl * 1000;
      if (row.access_token_ttl > 0 && now > toMillis(row.access_token_last_renewed_at ?? row.created_at) + ttlMs) {
        await deleteAccessToken(db, row.id);
        throw new UnauthorizedError("This access token has outlived its TTL");
      }
      if (row.access_token_num_uses_limit > 0 && row.access_token_num_uses >= row.access_token_num_uses_limit) {
        await deleteAccessToken(db, row.id);
        throw new UnauthorizedError("This access token has reached its number-of-uses limit");
      }
      if (row.access_token_max_ttl > 0) {
        const hardExpiry = toMillis(row.created_at) + row.access_token_max_ttl * 1000;
        if (now > hardExpiry) {
          await deleteAccessToken(db, row.id);
          throw new UnauthorizedError("This access token has outlived its max TTL");
        }
        if (now + ttlMs > hardExpiry) {
          throw new UnauthorizedError("This access token cannot be renewed past its max TTL; sign in again");
        }
      }
      const renewed = await markRenewed(db, row.id, new Date(now).toISOString());
      if (!renewed) throw new UnauthorizedError("This access token has been revoked");
      return bearerOf(renewed);
    },

    /** Revokes the token in the body; it is refused from the next request on, on every instance. */
    async revoke(accessToken: string): Promise<void> {
      const claims = await verify(accessToken);
      const row = await findAccessToken(db, claims.identityAccessTokenId);
      if (!row || row.identity_id !== claims.identityId) {
        throw new UnauthorizedError("This access token has been revoked");
      }
      // Revoking a revoked token again succeeds: the caller's wish is already true.
      await revokeAccessToken(db, row.id, nowIso());
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

      const row = await findTokenForRequest(db, claims.identityAccessTokenId);
      if (!row || row.is_access_token_revoked === 1 || row.identity_id !== claims.identityId) {
        throw new UnauthorizedError("This access token has been revoked");
      }
      const now = Date.now();
      if (row.access_token_ttl > 0) {
        const since = toMillis(row.access_token_last_renewed_at ?? row.created_at);
        if (now > since + row.access_token_ttl * 1000) {
          await deleteAccessToken(db, row.id);
          throw new UnauthorizedError("This access token has outlived its TTL");
        }
      }

      if (row.membership_id === null || row.org_id === null || row.role === null) {
        throw new ForbiddenError("This identity no longer belongs to the organisation");
      }
      if (row.trusted_ips === null) {
        throw new UnauthorizedError("The auth method that issued this token has been removed");
      }
      if (!trustedIpMatcher(row.trusted_ips)(callerIp)) {
        throw new ForbiddenError("This access token may not be used from your IP address");
      }

      // Counted last, so a refused request never spends a use. A limit is enforced in the
      // database, atomically; without one, the use is only recorded, in the next batch.
      const usedAt = new Date(now).toISOString();
      if (row.access_token_num_uses_limit === 0) {
        usage.record(row.id, usedAt);
      } else if (!(await consumeUse(db, row.id, usedAt))) {
        await deleteAccessToken(db, row.id);
        throw new UnauthorizedError("This access token has reached its number-of-uses limit");
      }

      return {
        identityId: row.identity_id,
        orgId: row.org_id,
        membershipId: row.membership_id,
        role: row.role,
        ability: orgAbilityFor(row.role),
        accessTokenId: row.id,
        authMethod: row.auth_method,
        claimMetadata: row.claim_metadata,
      };
    },
  };
}

export type AccessTokenService = ReturnType<typeof createAccessTokenService>;
