import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** `__Host-` makes browsers insist on Secure, Path=/ and no Domain. */
export const SESSION_COOKIE = "__Host-keyhold";
/** The name over plain HTTP (KEYHOLD_INSECURE_COOKIES=true), where `__Host-` cookies are refused. */
export const INSECURE_SESSION_COOKIE = "keyhold";

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export interface SessionCookie {
  name: string;
  options: { httpOnly: true; secure: boolean; sameSite: "strict"; path: "/" };
}

declare module "fastify" {
  interface FastifyInstance {
    /** The session cookie's name and attributes, fixed at start by KEYHOLD_INSECURE_COOKIES. */
    sessionCookie: SessionCookie;
  }
}

/**
 * Secure unless the operator says the console is served over plain HTTP on purpose; then the
 * cookie loses `Secure` and, with it, the `__Host-` prefix that requires it.
 */
export function registerSessionCookie(app: FastifyInstance, insecure: boolean): void {
  const options = { httpOnly: true, secure: !insecure, sameSite: "strict", path: "/" } as const;
  app.decorate("sessionCookie", { name: insecure ? INSECURE_SESSION_COOKIE : SESSION_COOKIE, options });
}

/** Whether the browser sent a session cookie at all, whatever its value. */
export function hasSessionCookie(request: FastifyRequest): boolean {
  return request.cookies[request.server.sessionCookie.name] !== undefined;
}

/** The session id the browser sent, if it has the shape of one. */
export function readSessionId(request: FastifyRequest): string | undefined {
  const value = request.cookies[request.server.sessionCookie.name];
  return value && SESSION_ID.test(value) ? value : undefined;
}

/** A session cookie: no Max-Age or Expires, so it never outlives the browser session. */
export function setSessionCookie(reply: FastifyReply, id: string): void {
  const { name, options } = reply.server.sessionCookie;
  reply.setCookie(name, id, options);
}

export function clearSessionCookie(reply: FastifyReply): void {
  const { name, options } = reply.server.sessionCookie;
  reply.clearCookie(name, options);
}
