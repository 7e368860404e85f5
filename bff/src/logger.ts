import { type DestinationStream, type Logger, pino } from "pino";
import type { Config } from "./config.ts";

/** Deny-list on top of Fastify's request serializer, which already logs no headers or bodies. */
const REDACT = [
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "headers.authorization",
  "headers.cookie",
  'headers["set-cookie"]',
  "authorization",
  "cookie",
  "accessToken",
  "token",
  "clientSecret",
  "*.accessToken",
  "*.token",
  "*.clientSecret",
];

export function createLogger(level: Config["logLevel"], destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACT, censor: "[redacted]" } };
  return destination ? pino(options, destination) : pino(options);
}
