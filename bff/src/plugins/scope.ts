import type { FastifyRequest } from "fastify";

const API_OR_BFF = /^\/(api|bff)(\/|\?|$)/;

/** The path of a request URL, without its query string. */
export function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Whether a request belongs to the BFF's own surface (X-CSRF required, never
 * cached). The router decodes percent-escapes before matching, so `/%61pi/…`
 * reaches an /api route: the matched route and the decoded path both count,
 * and a path that does not decode is treated as protected.
 */
export function isApiOrBffRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route !== undefined && API_OR_BFF.test(route)) return true;
  const path = pathOf(request.url);
  if (API_OR_BFF.test(path)) return true;
  try {
    return API_OR_BFF.test(decodeURIComponent(path));
  } catch {
    return true;
  }
}
