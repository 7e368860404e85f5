import { bffPaths, CSRF_HEADER, CSRF_VALUE, errorNames } from "@keyhold/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError } from "../errors.ts";
import { isApiOrBffRequest, pathOf } from "./scope.ts";

/**
 * The two navigations of single sign-on: the browser arrives by link or by the provider's
 * redirect, so it cannot add a header. Both are GETs that change nothing the attacker could
 * use: the login only starts a flow, and the callback completes only the flow whose cookie this
 * browser holds (and whose state, PKCE verifier and nonce match).
 */
const NAVIGATIONS = new Set<string>([bffPaths.oidcLogin, bffPaths.oidcCallback]);

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(";")[0]?.trim().toLowerCase() === "application/json";
}

/**
 * Runs first on every request, matched or not. A static custom header cannot be
 * sent cross-origin without a CORS preflight, which this origin never approves;
 * requiring JSON rules out the "simple" content types a plain form can send.
 */
export function registerCsrfGuard(app: FastifyInstance): void {
  // A callback hook rather than an async one: no promise per request.
  app.addHook("onRequest", (request, _reply, done) => {
    if (!isApiOrBffRequest(request)) return done();
    if (request.method === "GET" && NAVIGATIONS.has(pathOf(request.url))) return done();
    if (request.headers[CSRF_HEADER] !== CSRF_VALUE) {
      return done(
        new HttpError(401, errorNames.unauthorized, `Requests to this endpoint must carry the header "X-CSRF: 1".`),
      );
    }
    if (STATE_CHANGING.has(request.method) && hasBody(request) && !isJson(request.headers["content-type"])) {
      return done(new HttpError(415, errorNames.unsupportedMediaType, "Send the request body as application/json."));
    }
    done();
  });
}
