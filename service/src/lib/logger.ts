import pino, { type DestinationStream, type Logger } from "pino";
import type { Config } from "../config.ts";

/**
 * Redaction is a safety net: the code never logs tokens on purpose. Paths cover headers
 * and the field names under which credentials travel anywhere in the API.
 */
const credentialFields = [
  "accessToken",
  "token",
  "bootstrapToken",
  "secretValue",
  "clientSecret",
  "password",
  "tokenReviewerJwt",
  "authorization",
  "cookie",
  "rootKey",
];

export const redactPaths = [
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...credentialFields,
  ...credentialFields.map((field) => `*.${field}`),
  ...credentialFields.map((field) => `*.*.${field}`),
];

export function createLogger(config: Pick<Config, "logLevel">, stream?: DestinationStream): Logger {
  const options = { level: config.logLevel, redact: { paths: redactPaths, censor: "[redacted]" } };
  return stream ? pino(options, stream) : pino(options);
}
