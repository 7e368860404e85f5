import { createRequire } from "node:module";
import { logRedactPaths, wantsPrettyLogs } from "@keyhold/contract/runtime-config";
import pino, { type DestinationStream, type Logger } from "pino";
import type { Config } from "../config.ts";

/**
 * Standard output, written in batches of a few kilobytes rather than one system call a line
 * (a write per request costs more than the request's own reads). A timer pushes out what
 * waits at least every second, and pino writes the rest synchronously when the process exits.
 */
function bufferedStdout(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), 1_000).unref();
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

export function createLogger(
  config: Pick<Config, "logLevel" | "logFormat" | "nodeEnv">,
  stream?: DestinationStream,
): Logger {
  const options = { level: config.logLevel, redact: { paths: logRedactPaths, censor: "[redacted]" } };
  return pino(options, stream ?? (wantsPrettyLogs(config) ? prettyStdout() : undefined) ?? bufferedStdout());
}
