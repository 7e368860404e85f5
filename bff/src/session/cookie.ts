import type { FastifyReply, FastifyRequest } from "fastify";

/** `__Host-` makes browsers insist on Secure, Path=/ and no Domain. */
export const SESSION_COOKIE = "__Host-keyhold";

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

const cookieOptions = { httpOnly: true, secure: true, sameSite: "strict", path: "/" } as const;

/** The session id the browser sent, if it has the shape of one. */
export function readSessionId(request: FastifyRequest): string | undefined {
  const value = request.cookies[SESSION_COOKIE];
  return value && SESSION_ID.test(value) ? value : undefined;
}

/** A session cookie: no Max-Age or Expires, so it never outlives the browser session. */
export function setSessionCookie(reply: FastifyReply, id: string): void {
  reply.setCookie(SESSION_COOKIE, id, cookieOptions);
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions);
}
