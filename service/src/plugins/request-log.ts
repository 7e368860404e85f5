import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from "fastify";

/**
 * One log line per request, when it completes, in place of Fastify's two (incoming and
 * completed): reqId, method, path without its query string, status and time. No header is
 * logged, so neither tokens nor cookies can be.
 */
export class CompactRequestLog extends LogController {
  /**
   * The completed line is built here from five plain values (no object a credential could sit
   * in), so the redaction paths, a safety net for objects logged by mistake, have nothing to
   * find in it; yet pino's wildcard paths would run their redactor over each of its values, a
   * cost several times the line's own. It is written by a child logger without redaction.
   * Errors are still logged by the request's own (redacting) logger: an error may carry anything.
   */
  readonly #lines: FastifyBaseLogger;

  constructor(logger: FastifyBaseLogger) {
    super();
    this.#lines = logger.child({}, { redact: [] });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const queryAt = request.url.indexOf("?");
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    if (error) {
      reply.log.error(
        { method: request.method, path, statusCode: reply.statusCode, ms, err: error },
        "request errored",
      );
    } else {
      this.#lines.info(
        { reqId: request.id, method: request.method, path, statusCode: reply.statusCode, ms },
        "request completed",
      );
    }
  }
}
