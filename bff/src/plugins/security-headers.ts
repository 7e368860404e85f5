import type { FastifyInstance } from "fastify";
import { isApiOrBffRequest } from "./scope.ts";

/** The production policy: the built SPA loads only its own files and talks only to this origin. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join("; ");

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "permissions-policy":
    "accelerometer=(), camera=(), clipboard-read=(), display-capture=(), geolocation=(), gyroscope=(), " +
    "hid=(), magnetometer=(), microphone=(), midi=(), payment=(), serial=(), usb=()",
};

/** Added as the response leaves, so errors, 404s and static files all carry them. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  // A callback hook rather than an async one: no promise per response.
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.headers(SECURITY_HEADERS);
    if (isApiOrBffRequest(request)) reply.header("cache-control", "no-store");
    reply.removeHeader("server");
    reply.removeHeader("x-powered-by");
    done(null, payload);
  });
}
