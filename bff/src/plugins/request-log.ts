import { type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { pathOf } from "./scope.ts";

/** The route template (`/api/v1/identities/:identityId`), or the path without its query when none matched. */
function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? pathOf(request.url);
}

/**
 * One log line per request, when it completes, in place of Fastify's two (incoming and
 * completed, which serialise the request with its query string). The line carries the
 * request id (bound by Fastify), the method, the route template (no parameter or query
 * values), the status and the duration; never a header, cookie or body.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      route: routeOf(request),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, reason: error.message }, "request errored");
    else reply.log.info(line, "request completed");
  }
}
