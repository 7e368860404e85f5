import { createRequire } from "node:module";
import { logRedactPaths, wantsPrettyLogs } from "@keyhold/contract/runtime-config";
import { deferredChildLogger } from "@keyhold/contract/runtime-server";
import type { FastifyServerOptions } from "fastify";
import { type DestinationStream, type Logger, pino } from "pino";
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

/** Fastify's factory of request loggers: each made when the request first logs through it. */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions["childLoggerFactory"]> = (
  logger,
  bindings,
  options,
) => deferredChildLogger(logger, bindings, options);
