import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { pathOf } from "./scope.ts";

/** The route template (`/api/v1/identities/:identityId`), or the path without its query when none matched. */
function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? pathOf(request.url);
}

/**
 * One log line per request, when it completes, in place of Fastify's two (incoming and
 * completed, which serialise the request with its query string). The line carries the
 * request id, the method, the route template (no parameter or query values), the status
 * and the duration; never a header, cookie or body.
 *
 * Those fields are all the line can hold, so it is written by a child of the app's logger
 * without the redaction paths, which cost more than the rest of the line; every other log
 * call keeps them.
 */
export class RequestLog extends LogController {
  readonly #lines: FastifyBaseLogger;

  constructor(logger: FastifyBaseLogger) {
    super();
    this.#lines = logger.child({}, { redact: { paths: [] } });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      reply.log.error(
        { method: request.method, route: routeOf(request), statusCode: reply.statusCode, reason: error.message },
        "request errored",
      );
      return;
    }
    this.#lines.info(
      {
        reqId: request.id,
        method: request.method,
        route: routeOf(request),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      "request completed",
    );
  }
}
