import {
  type Endpoint,
  endpointList,
  errorNames,
  routePattern,
  SERVER_FEATURES_HEADER,
  unavailableFeaturesStamp,
} from "@keyhold/contract";
import type { FastifyInstance } from "fastify";
import { notFound, unauthorized } from "../errors.ts";
import { clearSessionCookie } from "../session/cookie.ts";
import { requireSession } from "../session/guard.ts";
import type { TokenRenewal } from "../session/renewal.ts";
import type { Sessions } from "../session/sessions.ts";
import type { CompatAnswer, UpstreamCompat } from "../compat/upstream-compat.ts";
import { prepareInput } from "../upstream/input.ts";

export interface ForwardDeps {
  sessions: Sessions;
  compat: UpstreamCompat;
  renewal: TokenRenewal;
}

/**
 * 401 (after normalisation, so not an older server's 401 validation failure), or Infisical's
 * 403 TokenError (expired or malformed JWT): the session's token is dead.
 */
function tokenRejected(answer: CompatAnswer): boolean {
  if (answer.status !== 401 && answer.status !== 403) return false;
  const error = (answer.json as { error?: unknown } | undefined)?.error;
  return answer.status === 401 || error === errorNames.token;
}

/** `/api/*`: one route per contract endpoint, and nothing else reaches the upstream. */
export function registerForwarding(app: FastifyInstance, deps: ForwardDeps): void {
  for (const endpoint of endpointList as readonly Endpoint[]) {
    // Sign-in, renewal and revocation by credentials in the body are for machines, not for a
    // console session: the BFF does its own sign-in, and never sends a session's token there.
    if (endpoint.auth === "none") continue;
    const readInput = prepareInput(endpoint);
    app.route({
      method: endpoint.method,
      url: routePattern(endpoint.path),
      exposeHeadRoute: false,
      // The batches take more than the default 1 MiB (a 5,000-line import with long values).
      ...(endpoint.bodyLimit !== undefined && { bodyLimit: endpoint.bodyLimit }),
      // An answer of 1 KB or more goes out in brotli or gzip when the browser accepts it (a list
      // of secrets is JSON that shrinks about eightfold). Nothing a third party controls can be
      // sent into a compressed answer together with the session: every call needs the X-CSRF
      // header, which no cross-site page can add, and the cookie is SameSite=Strict.
      compress: { threshold: 1024 },
      handler: async (request, reply) => {
        const session = await requireSession(deps.sessions, request, reply, deps.renewal);
        const { params, search, body } = readInput(request);
        const response = await deps.compat.forward(
          {
            endpoint,
            params,
            search,
            body,
            accessToken: session.accessToken,
            clientIp: request.ip,
            reqId: request.id,
            orgId: session.orgId,
          },
          request.log,
        );
        if (tokenRejected(response)) {
          await deps.sessions.end(session.id);
          clearSessionCookie(reply);
          throw unauthorized("The secrets service no longer accepts this session's access token. Sign in again.");
        }
        reply.code(response.status);
        reply.header(SERVER_FEATURES_HEADER, unavailableFeaturesStamp(deps.compat.features()));
        if (response.stream) {
          // The bytes go on as they come, with the length the upstream gave (chunked without one).
          if (response.length !== undefined) reply.header("content-length", response.length);
          return reply.type("application/json; charset=utf-8").send(response.stream);
        }
        if (response.text === "") return reply.send();
        return reply.type("application/json; charset=utf-8").send(response.text);
      },
    });
  }

  app.all("/api/*", async () => {
    throw notFound("No API endpoint matches this method and path.");
  });
}
