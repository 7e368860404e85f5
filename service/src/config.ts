import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { parseTrustedIp } from "./lib/trusted-ips.ts";

/** The workspace root: service/src/config.ts → ../.. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const PostgresUrl = z
  .string()
  .trim()
  .refine((url) => /^postgres(ql)?:\/\//.test(url), "DATABASE_URL must be a postgres:// or postgresql:// URL");

/** One KEYHOLD_TRUSTED_PROXIES entry as a CIDR block, read by the same rules as trusted IPs. */
function proxyBlock(entry: string): string | undefined {
  const parsed = parseTrustedIp(entry);
  return parsed && `${parsed.ipAddress}/${parsed.prefix ?? (parsed.type === "ipv4" ? 32 : 128)}`;
}

/** Comma-separated addresses or CIDR blocks; empty or unset trusts no proxy. */
const TrustedProxies = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const entries = (value ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    const blocks: string[] = [];
    for (const entry of entries) {
      const block = proxyBlock(entry);
      if (block) blocks.push(block);
      else ctx.addIssue({ code: "custom", message: `"${entry}" is not an IPv4 or IPv6 address or CIDR block` });
    }
    return blocks;
  });

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8081),
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  KEYHOLD_DATA_DIR: z.string().trim().min(1).optional(),
  DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(PostgresUrl.optional()),
  KEYHOLD_ROOT_KEY: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined)),
  KEYHOLD_TOKEN_USAGE_FLUSH_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  KEYHOLD_TRUSTED_PROXIES: TrustedProxies,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  METRICS_HOST: z.string().trim().min(1).default("127.0.0.1"),
  KEYHOLD_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
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
  logLevel: z.infer<typeof EnvSchema>["LOG_LEVEL"];
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
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Reads and validates the environment once; the result is passed down, never re-read. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.KEYHOLD_DATA_DIR ?? path.join(repoRoot, ".keyhold")),
    databaseUrl: e.DATABASE_URL,
    rootKey: e.KEYHOLD_ROOT_KEY,
    logLevel: e.LOG_LEVEL,
    tokenUsageFlushMs: e.KEYHOLD_TOKEN_USAGE_FLUSH_MS,
    trustedProxies: e.KEYHOLD_TRUSTED_PROXIES,
    metrics: e.METRICS_PORT === undefined ? undefined : { host: e.METRICS_HOST, port: e.METRICS_PORT },
    shutdownGraceMs: e.KEYHOLD_SHUTDOWN_GRACE_MS,
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
