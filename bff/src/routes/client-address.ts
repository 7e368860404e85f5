import { bffPaths, type ClientAddress, callerAddressOf } from "@keyhold/contract";
import type { FastifyInstance } from "fastify";
import { requireSession } from "../session/guard.ts";
import type { TokenRenewal } from "../session/renewal.ts";
import type { Sessions } from "../session/sessions.ts";

export interface ClientAddressDeps {
  sessions: Sessions;
  renewal: TokenRenewal;
  /** KEYHOLD_TRUSTED_PROXIES, as Fastify was given it to read X-Forwarded-For by. */
  trustedProxies: readonly string[];
}

/** As the trusted-IP check reads it: an IPv4-mapped address (a dual-stack socket's) as IPv4. */
const shown = (address: string) => callerAddressOf(address) ?? address;

/**
 * "Add my address" in the trusted-IP editors: the address this BFF forwards upstream for the
 * browser (`request.ip`, as every forwarded call sends it) and how it was read. Signed-in people only:
 * the proxy setting is the operator's.
 */
export function registerClientAddressRoute(app: FastifyInstance, deps: ClientAddressDeps): void {
  app.get(bffPaths.clientAddress, async (request, reply) => {
    await requireSession(deps.sessions, request, reply, deps.renewal);
    const address = shown(request.ip);
    const connectedFrom = shown(request.socket.remoteAddress ?? request.ip);
    const answer: ClientAddress = {
      address,
      connectedFrom,
      trustedProxies: [...deps.trustedProxies],
      viaTrustedProxy: address !== connectedFrom,
    };
    return answer;
  });
}
