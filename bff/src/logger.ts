import { createRequire } from "node:module";
import { logRedactPaths, wantsPrettyLogs } from "@keyhold/contract/runtime-config";
import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";
import { type Bindings, type ChildLoggerOptions, type DestinationStream, type LogFn, type Logger, pino } from "pino";
import type { Config } from "./config.ts";

/**
 * Standard output, written in batches of a few kilobytes rather than one system call per
 * line. A timer pushes out what waits at least every second, and pino writes the rest
 * synchronously when the process exits. One per process, whatever the number of apps.
 */
let stdout: DestinationStream | undefined;

function bufferedStdout(): DestinationStream {
  if (stdout) return stdout;
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), 1_000).unref();
  stdout = destination;
  return destination;
}

/**
 * Readable coloured lines (pino-pretty, a development dependency) for a person at a terminal.
 * Undefined where it is not installed, as in a production deployment: JSON lines are written then.
 */
function prettyStdout(): DestinationStream | undefined {
  try {
    const pretty = createRequire(import.meta.url)("pino-pretty") as typeof import("pino-pretty");
    return pretty.build({ colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname", sync: true });
  } catch {
    return undefined;
  }
}

/** The process's logger: JSON lines on standard output, or pretty ones at a terminal (see wantsPrettyLogs). */
export function loggerFor(config: Pick<Config, "logLevel" | "logFormat" | "nodeEnv">): Logger {
  return createLogger(config.logLevel, wantsPrettyLogs(config) ? prettyStdout() : undefined);
}

export function createLogger(level: Config["logLevel"], destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: logRedactPaths, censor: "[redacted]" } };
  return pino(options, destination ?? bufferedStdout());
}

/**
 * A request's logger, made when a request first logs through it (methods on the prototype, so
 * that a request that never logs costs one small object): most requests log nothing but
 * their completion line (RequestLog, which has its own logger), so building a child with its
 * bindings serialised and redacted for each one would be work thrown away. Once made, it is the
 * child Fastify would have made, redaction and all.
 */
class LazyChildLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get #logger(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#logger.level = level;
  }

  fatal(...args: Parameters<LogFn>): void {
    this.#logger.fatal(...args);
  }

  error(...args: Parameters<LogFn>): void {
    this.#logger.error(...args);
  }

  warn(...args: Parameters<LogFn>): void {
    this.#logger.warn(...args);
  }

  info(...args: Parameters<LogFn>): void {
    this.#logger.info(...args);
  }

  debug(...args: Parameters<LogFn>): void {
    this.#logger.debug(...args);
  }

  trace(...args: Parameters<LogFn>): void {
    this.#logger.trace(...args);
  }

  silent(...args: Parameters<LogFn>): void {
    this.#logger.silent(...args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
}

/** Fastify's factory of request loggers, lazily (see LazyChildLogger). */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions["childLoggerFactory"]> = (
  logger,
  bindings,
  options,
) => new LazyChildLogger(logger, bindings, options);
