import { type Endpoint, endpointList, errorNames, routePattern } from "@keyhold/contract";
import type { FastifyInstance } from "fastify";
import { notFound, unauthorized } from "../errors.ts";
import { clearSessionCookie } from "../session/cookie.ts";
import { requireSession } from "../session/guard.ts";
import type { Sessions } from "../session/sessions.ts";
import type { Upstream, UpstreamResponse } from "../upstream/client.ts";
import { prepareInput } from "../upstream/input.ts";

export interface ForwardDeps {
  sessions: Sessions;
  upstream: Upstream;
}

/** 401, or Infisical's 403 TokenError (expired or malformed JWT): the session's token is dead. */
function tokenRejected(response: UpstreamResponse): boolean {
  if (response.status === 401) return true;
  if (response.status !== 403) return false;
  try {
    const body: unknown = JSON.parse(response.text);
    return typeof body === "object" && body !== null && "error" in body && body.error === errorNames.token;
  } catch {
    return false;
  }
}

/** `/api/*`: one route per contract endpoint, and nothing else reaches the upstream. */
export function registerForwarding(app: FastifyInstance, deps: ForwardDeps): void {
  for (const endpoint of endpointList as readonly Endpoint[]) {
    const readInput = prepareInput(endpoint);
    app.route({
      method: endpoint.method,
      url: routePattern(endpoint.path),
      exposeHeadRoute: false,
      handler: async (request, reply) => {
        const session = await requireSession(deps.sessions, request, reply);
        const { pathAndQuery, body } = readInput(request);
        const response = await deps.upstream.call(
          { method: endpoint.method, pathAndQuery, body, accessToken: session.accessToken, endpoint: endpoint.id },
          request.log,
        );
        if (tokenRejected(response)) {
          await deps.sessions.end(session.id);
          clearSessionCookie(reply);
          throw unauthorized("The secrets service no longer accepts this session's access token. Sign in again.");
        }
        reply.code(response.status);
        if (response.text === "") return reply.send();
        return reply.type("application/json; charset=utf-8").send(response.text);
      },
    });
  }

  app.all("/api/*", async () => {
    throw notFound("No API endpoint matches this method and path.");
  });
}
