import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  hostVariable,
  type LogFormat,
  type LogLevel,
  logFormatVariable,
  logLevelVariable,
  type NodeEnv,
  nodeEnvVariable,
  optionalPortVariable,
  parseEnvironment,
  portVariable,
  trustedProxiesVariable,
  unsetWhenEmpty,
  urlVariable,
  withFileVariables,
} from "@keyhold/contract/runtime-config";
import { z } from "zod";
import { decodeRootKey, ROOT_KEY_BYTES } from "./lib/key-encoding.ts";

export { ConfigError } from "@keyhold/contract/runtime-config";

/** The workspace root: service/src/config.ts → ../.. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Variables that may instead be given as `<NAME>_FILE`, the path of a file holding the value. */
const fileVariables = ["KEYHOLD_ROOT_KEY", "DATABASE_URL"] as const;

const EnvSchema = z
  .object({
    NODE_ENV: nodeEnvVariable,
    PORT: portVariable(8081),
    HOST: hostVariable,
    KEYHOLD_DATA_DIR: z.preprocess(unsetWhenEmpty, z.string().trim().optional()),
    DATABASE_URL: z.preprocess(unsetWhenEmpty, urlVariable(["postgres", "postgresql"]).optional()),
    KEYHOLD_ROOT_KEY: z.preprocess(
      unsetWhenEmpty,
      z
        .string()
        .trim()
        .refine(
          (key) => decodeRootKey(key) !== undefined,
          `must encode exactly ${ROOT_KEY_BYTES} bytes, as base64 (44 characters) or hex (64); make one with: openssl rand -base64 32`,
        )
        .optional(),
    ),
    KEYHOLD_TOKEN_USAGE_FLUSH_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
    KEYHOLD_TRUSTED_PROXIES: trustedProxiesVariable,
    LOG_LEVEL: logLevelVariable,
    LOG_FORMAT: logFormatVariable,
    METRICS_PORT: optionalPortVariable,
    METRICS_HOST: hostVariable,
    KEYHOLD_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
    KEYHOLD_AUDIT_PRUNE_INTERVAL_MS: z.coerce.number().int().min(1_000).max(604_800_000).default(3_600_000),
  })
  .superRefine((e, ctx) => {
    // A key made on first start lives only in the data dir: losing that directory (or running a
    // second replica beside it) loses every sealed credential. Production says where the key is.
    if (e.NODE_ENV === "production" && !e.KEYHOLD_ROOT_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["KEYHOLD_ROOT_KEY"],
        message:
          "required when NODE_ENV=production: set KEYHOLD_ROOT_KEY or KEYHOLD_ROOT_KEY_FILE (make one with: openssl rand -base64 32)",
      });
    }
  });

export interface Config {
  port: number;
  host: string;
  /** Holds the SQLite file, the root key file and the admin token. */
  dataDir: string;
  /** A PostgreSQL URL; unset means SQLite in the data dir. */
  databaseUrl: string | undefined;
  /** Base64 (or hex) encoding of 32 bytes; unset means a key file in the data dir. */
  rootKey: string | undefined;
  nodeEnv: NodeEnv;
  logLevel: LogLevel;
  /** Unset: pretty lines when standard output is a terminal outside production, JSON otherwise. */
  logFormat: LogFormat | undefined;
  /** How often the last-used times and use counts of tokens without a uses limit are written. */
  tokenUsageFlushMs: number;
  /**
   * CIDR blocks of the proxies (the BFF) whose X-Forwarded-For is believed. Empty: the address
   * checked against trusted IPs is always the connection's peer.
   */
  trustedProxies: string[];
  /** Where Prometheus metrics are served (GET /metrics); undefined: no metrics listener. */
  metrics: { host: string; port: number } | undefined;
  /** How long in-flight requests may run on after SIGTERM before their connections are closed. */
  shutdownGraceMs: number;
  /** How often audit events past their retention are pruned. */
  auditPruneIntervalMs: number;
}

/** Reads and validates the environment once; the result is passed down, never re-read. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const e = parseEnvironment(
    EnvSchema,
    withFileVariables(env, fileVariables, (file) => fs.readFileSync(file, "utf8")),
  );
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.KEYHOLD_DATA_DIR ?? path.join(repoRoot, ".keyhold")),
    databaseUrl: e.DATABASE_URL,
    rootKey: e.KEYHOLD_ROOT_KEY,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    tokenUsageFlushMs: e.KEYHOLD_TOKEN_USAGE_FLUSH_MS,
    trustedProxies: e.KEYHOLD_TRUSTED_PROXIES,
    metrics: e.METRICS_PORT === undefined ? undefined : { host: e.METRICS_HOST, port: e.METRICS_PORT },
    shutdownGraceMs: e.KEYHOLD_SHUTDOWN_GRACE_MS,
    auditPruneIntervalMs: e.KEYHOLD_AUDIT_PRUNE_INTERVAL_MS,
  };
}

/** Where the service keeps its files inside the data dir. */
export function dataFiles(config: Pick<Config, "dataDir">) {
  return {
    sqlite: path.join(config.dataDir, "keyhold.db"),
    rootKey: path.join(config.dataDir, "root-key"),
    adminToken: path.join(config.dataDir, "admin-token"),
  };
}
