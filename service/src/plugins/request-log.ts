import { type FastifyReply, type FastifyRequest, LogController } from "fastify";

/**
 * One log line per request, when it completes, in place of Fastify's two (incoming and
 * completed): reqId, method, path without its query string, status and time. No header is
 * logged, so neither tokens nor cookies can be.
 */
export class CompactRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const queryAt = request.url.indexOf("?");
    const line = {
      method: request.method,
      path: queryAt === -1 ? request.url : request.url.slice(0, queryAt),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}
