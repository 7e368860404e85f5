import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AccessTokenService, Actor } from "../domain/access-tokens.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the authentication hook on routes that require an access token. */
    actor: Actor | null;
  }
}

export type Authenticate = (request: FastifyRequest) => Promise<void>;

/**
 * Adds `request.actor` and returns the hook that fills it. Routes opt in by using the hook
 * as their `onRequest`, so authentication happens before any body is read or validated.
 */
export function registerAuth(app: FastifyInstance, accessTokens: AccessTokenService): Authenticate {
  app.decorateRequest("actor", null);
  return async (request) => {
    request.actor = await accessTokens.authenticate(request.headers.authorization, request.ip);
  };
}
