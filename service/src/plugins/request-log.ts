import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from "fastify";
import type { Bindings, ChildLoggerOptions, LogFn } from "pino";

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/**
 * A request's logger (the parent's child bound to the request id), made only when something
 * logs through it: making a pino child runs the redaction over its bindings, which costs more
 * than a read's own work, and most requests log nothing but their completed line, which the
 * log controller writes. Whatever does log through it goes through the same redaction as before.
 */
class DeferredChildLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #made: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #logger(): FastifyBaseLogger {
    this.#made ??= this.#parent.child(this.#bindings, this.#options);
    return this.#made;
  }

  #forward(level: Level): LogFn {
    return ((...args: Parameters<LogFn>) => this.#logger()[level](...args)) as LogFn;
  }

  get level(): string {
    return this.#made?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  fatal = this.#forward("fatal");
  error = this.#forward("error");
  warn = this.#forward("warn");
  info = this.#forward("info");
  debug = this.#forward("debug");
  trace = this.#forward("trace");
  silent = this.#forward("silent");

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made when first used. */
export function deferredChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new DeferredChildLogger(logger, bindings, options);
}

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
