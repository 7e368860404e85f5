import type { UpstreamCompat } from "../compat/upstream-compat.ts";
import type { OidcConfig } from "../config.ts";
import type { SsoRenew } from "../session/renewal.ts";
import { badGateway } from "../errors.ts";
import { isUnreachable, type OidcClient, reasonOf } from "./client.ts";
import { SsoRefusal, upstreamLogin } from "./sign-in.ts";

/**
 * Renewal of a single sign-on session: the provider's refresh grant (the person must still be
 * allowed there), then the upstream sign-in again with the fresh ID token (the identity's OIDC
 * auth must still accept them). A provider that cannot be reached is not a refusal: the error
 * propagates and the session stays, to be renewed on a later request.
 */
export function ssoRenewer(config: OidcConfig, client: OidcClient, compat: UpstreamCompat): SsoRenew {
  return async (session, context) => {
    const oidc = session.oidc;
    if (!oidc?.refreshToken) return { oidc: oidc ?? { identityId: "", rule: "" } };
    let tokens: Awaited<ReturnType<OidcClient["refresh"]>>;
    try {
      tokens = await client.refresh(oidc.refreshToken);
    } catch (error) {
      if (isUnreachable(error)) {
        context.log.warn({ reason: reasonOf(error) }, "the provider could not be reached to renew a sign-in");
        throw badGateway(`${config.providerName} could not be reached to renew your sign-in. Try again shortly.`);
      }
      context.log.info({ reason: reasonOf(error) }, "the provider refused the refresh token");
      return undefined;
    }
    const next = { ...oidc, refreshToken: tokens.refreshToken ?? oidc.refreshToken };
    if (!tokens.idToken || !tokens.claims) return { oidc: next };
    try {
      const signedIn = await upstreamLogin(
        compat,
        config.providerName,
        { identityId: oidc.identityId, rule: oidc.rule },
        tokens.idToken,
        tokens.claims,
        context,
      );
      return { signedIn, oidc: next };
    } catch (error) {
      if (!(error instanceof SsoRefusal)) throw error;
      context.log.info({ reason: error.message }, "the secrets service refused the renewed sign-in");
      return undefined;
    }
  };
}
