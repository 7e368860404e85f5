import type { FastifyReply, FastifyRequest } from "fastify";
import { unauthorized } from "../errors.ts";
import { clearSessionCookie, readSessionId, SESSION_COOKIE } from "./cookie.ts";
import type { Sessions } from "./sessions.ts";
import type { Session } from "./store.ts";

/** The caller's live session; otherwise 401, and a stale cookie is expired. */
export async function requireSession(
  sessions: Sessions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Session> {
  const id = readSessionId(request);
  const session = id === undefined ? undefined : await sessions.resume(id);
  if (session) return session;
  if (request.cookies[SESSION_COOKIE] !== undefined) clearSessionCookie(reply);
  throw unauthorized("Your session has ended or was never started. Sign in to continue.");
}
