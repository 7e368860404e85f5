import type { FastifyBaseLogger } from "fastify";
import type { Session } from "../session/store.ts";
import { type OidcClient, reasonOf } from "./client.ts";

/**
 * The provider's side of signing out a single sign-on session: its refresh token revoked (when
 * the provider has a revocation endpoint), and the URL that ends the provider's own session
 * (when it has an end-session endpoint). Neither may stop the sign-out: failures are logged.
 */
export async function ssoSignOut(
  client: OidcClient,
  session: Session,
  publicOrigin: string,
  log: FastifyBaseLogger,
): Promise<string | undefined> {
  const refreshToken = session.oidc?.refreshToken;
  const [, endSessionUrl] = await Promise.all([
    refreshToken &&
      client.revokeRefreshToken(refreshToken).catch((error: unknown) => {
        log.warn({ reason: reasonOf(error) }, "the provider's refresh token was not revoked at sign-out");
      }),
    client.endSessionUrl(`${publicOrigin}/sign-in`).catch((error: unknown) => {
      log.warn({ reason: reasonOf(error) }, "the provider's end-session URL is unknown");
      return undefined;
    }),
  ]);
  return endSessionUrl;
}
