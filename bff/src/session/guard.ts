import type { FastifyReply, FastifyRequest } from "fastify";
import { unauthorized } from "../errors.ts";
import { clearSessionCookie, hasSessionCookie, readSessionId } from "./cookie.ts";
import type { TokenRenewal } from "./renewal.ts";
import type { Sessions } from "./sessions.ts";
import type { Session } from "./store.ts";

/**
 * The caller's live session, its bearer token renewed first when due; otherwise 401, and a
 * stale cookie is expired.
 */
export async function requireSession(
  sessions: Sessions,
  request: FastifyRequest,
  reply: FastifyReply,
  renewal?: TokenRenewal,
): Promise<Session> {
  const id = readSessionId(request);
  const session = id === undefined ? undefined : await sessions.resume(id);
  if (session && renewal?.due(session)) {
    const renewed = await renewal.renew(session, { reqId: request.id, clientIp: request.ip, log: request.log });
    if (renewed) return renewed;
    clearSessionCookie(reply);
    throw unauthorized(
      session.person
        ? `Your sign-in at ${session.person.provider} has ended. Sign in again.`
        : "The session's access token could not be renewed. Sign in again.",
    );
  }
  if (session) return session;
  if (hasSessionCookie(request)) clearSessionCookie(reply);
  throw unauthorized("Your session has ended or was never started. Sign in to continue.");
}
