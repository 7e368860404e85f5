import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { isApiOrBffRequest } from "./scope.ts";

/**
 * The production policy: the built SPA loads only its own files and talks only to this origin.
 * `scriptSources` adds the hashes of the build's inline scripts (its boot script), one by one.
 */
export function contentSecurityPolicy(scriptSources: readonly string[] = []): string {
  return [
    "default-src 'none'",
    ["script-src 'self'", ...scriptSources].join(" "),
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
}

/** The policy without the console's inline scripts (for responses of a BFF that serves no console build). */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

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

/** Only a script's hash may be added: never 'unsafe-inline', a host or a nonce. */
const CspFileSchema = z.object({ "script-src": z.array(z.string().regex(/^'sha256-[A-Za-z0-9+/]{43}='$/)) });

/**
 * The hashes of the console build's inline scripts, which the build writes beside its manifest
 * (web/tooling/route-preloads.ts); none for a build without the file. A malformed file stops the BFF.
 */
export function consoleScriptSources(webDistDir: string | undefined): string[] {
  const file = webDistDir && path.join(webDistDir, ".vite", "csp.json");
  if (!file || !existsSync(file)) return [];
  const parsed = CspFileSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} does not list script hashes: ${parsed.error.message}`);
  return parsed.data["script-src"];
}

/** Every response's security headers, with the console's inline scripts allowed by hash. */
export function securityHeaders(scriptSources: readonly string[] = []): Readonly<Record<string, string>> {
  return { ...SECURITY_HEADERS, "content-security-policy": contentSecurityPolicy(scriptSources) };
}

/** Added as the response leaves, so errors, 404s and static files all carry them. */
export function registerSecurityHeaders(app: FastifyInstance, headers = SECURITY_HEADERS): void {
  // A callback hook rather than an async one: no promise per response.
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.headers(headers);
    if (isApiOrBffRequest(request)) reply.header("cache-control", "no-store");
    reply.removeHeader("server");
    reply.removeHeader("x-powered-by");
    done(null, payload);
  });
}
