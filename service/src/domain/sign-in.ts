import type { Kysely } from "kysely";
import type { AuthMethodName } from "../data/auth-methods.ts";
import { findHomeMembershipId, recordLogin } from "../data/identities.ts";
import type { AccessTokenRow, AuthMethodRow, Database } from "../db/schema.ts";
import { nowIso } from "../lib/time.ts";
import type { AccessTokenService, IssuedToken } from "./access-tokens.ts";
import type { AuthMethodService } from "./auth-method-service.ts";
import { NotFoundError, UnauthorizedError } from "./errors.ts";

/** What every sign-in answers with, from the token row it created. */
export function issuedTokenOf(issued: { accessToken: string; row: AccessTokenRow }): IssuedToken {
  return {
    accessToken: issued.accessToken,
    expiresIn: issued.row.access_token_ttl,
    accessTokenMaxTTL: issued.row.access_token_max_ttl,
    tokenType: "Bearer",
  };
}

/**
 * The part of a sign-in that is the same for the methods that prove an identity through a peer
 * (Kubernetes, OIDC, AWS): find the method's configuration, and once the peer has vouched for
 * the caller, issue a token with the method's lifetime settings and record the login.
 */
export function createSignIn(deps: {
  db: Kysely<Database>;
  accessTokens: AccessTokenService;
  authMethods: AuthMethodService;
}) {
  const { db, accessTokens, authMethods } = deps;
  return {
    /** The identity's configuration of the method, credentials opened; 404 when not attached. */
    async configOf(method: AuthMethodName, identityId: string, notFound: string) {
      const found = await authMethods.forSignIn(method, identityId);
      if (!found) throw new NotFoundError(notFound);
      return found;
    },

    /** `claimMetadata`: what an OIDC login's claimMetadataMapping mapped, kept on the token for its events. */
    async issue(
      method: AuthMethodName,
      config: AuthMethodRow,
      claimMetadata: Record<string, string> | null = null,
    ): Promise<IssuedToken> {
      const membershipId = await findHomeMembershipId(db, config.identity_id);
      if (!membershipId) throw new UnauthorizedError("This identity is not a member of an organisation");
      const issued = await accessTokens.issue({
        identityId: config.identity_id,
        authMethod: method,
        name: null,
        accessTokenTTL: config.access_token_ttl,
        accessTokenMaxTTL: config.access_token_max_ttl,
        accessTokenNumUsesLimit: config.access_token_num_uses_limit,
        claimMetadata,
      });
      await recordLogin(db, membershipId, method, nowIso());
      return issuedTokenOf(issued);
    },
  };
}

export type SignIn = ReturnType<typeof createSignIn>;
