import type { RouteError } from "./route-error";

/**
 * The routes' error element, for their `lazy` definitions: it is needed only when a route
 * fails, so its code (error panel, not-found page) stays out of the first screen's download.
 */
export async function lazyRouteError(): Promise<typeof RouteError> {
  return (await import("./route-error")).RouteError;
}
