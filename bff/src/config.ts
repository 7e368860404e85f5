import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

const minutes = (n: number) => n * 60_000;

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  KEYHOLD_UPSTREAM_URL: z
    .url({ protocol: /^https?$/ })
    .default("http://127.0.0.1:8081")
    .refine((u) => {
      const url = new URL(u);
      return url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
    }, "must be an origin such as https://secrets.example.com (no path, query or credentials)")
    .transform((u) => new URL(u).origin),
  REDIS_URL: z
    .string()
    .trim()
    .regex(/^rediss?:\/\//, "REDIS_URL must be a redis:// or rediss:// URL")
    .optional(),
  KEYHOLD_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  KEYHOLD_SESSION_IDLE_MINUTES: z.coerce.number().positive().default(15),
  KEYHOLD_SESSION_ABSOLUTE_MINUTES: z.coerce
    .number()
    .positive()
    .default(8 * 60),
  KEYHOLD_LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  KEYHOLD_LOGIN_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  KEYHOLD_WEB_DIST: z.string().trim().min(1).default(`${repoRoot}web/dist`),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  METRICS_HOST: z.string().trim().min(1).default("127.0.0.1"),
  KEYHOLD_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
});

/** Everything the BFF reads from its environment, validated once at start. */
export interface Config {
  port: number;
  host: string;
  /** Origin only (scheme, host, port): every upstream URL is this plus a contract path. */
  upstreamOrigin: string;
  redisUrl: string | undefined;
  upstreamTimeoutMs: number;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  loginRateLimit: { max: number; windowMs: number };
  /** The built SPA, or undefined when it has not been built. */
  webDistDir: string | undefined;
  logLevel: z.infer<typeof EnvSchema>["LOG_LEVEL"];
  /** Where Prometheus metrics are served (GET /metrics); undefined: no metrics listener. */
  metrics: { host: string; port: number } | undefined;
  /** How long in-flight requests may run on after SIGTERM before their connections are closed. */
  shutdownGraceMs: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`Invalid BFF configuration: ${problems}`);
  }
  const e = parsed.data;
  if (e.KEYHOLD_SESSION_IDLE_MINUTES > e.KEYHOLD_SESSION_ABSOLUTE_MINUTES) {
    throw new ConfigError("Invalid BFF configuration: the idle timeout cannot exceed the absolute timeout");
  }
  return {
    port: e.PORT,
    host: e.HOST,
    upstreamOrigin: e.KEYHOLD_UPSTREAM_URL,
    redisUrl: e.REDIS_URL,
    upstreamTimeoutMs: e.KEYHOLD_UPSTREAM_TIMEOUT_MS,
    sessionIdleMs: minutes(e.KEYHOLD_SESSION_IDLE_MINUTES),
    sessionAbsoluteMs: minutes(e.KEYHOLD_SESSION_ABSOLUTE_MINUTES),
    loginRateLimit: { max: e.KEYHOLD_LOGIN_RATE_LIMIT, windowMs: e.KEYHOLD_LOGIN_RATE_WINDOW_SECONDS * 1000 },
    webDistDir: existsSync(`${e.KEYHOLD_WEB_DIST}/index.html`) ? e.KEYHOLD_WEB_DIST : undefined,
    logLevel: e.LOG_LEVEL,
    metrics: e.METRICS_PORT === undefined ? undefined : { host: e.METRICS_HOST, port: e.METRICS_PORT },
    shutdownGraceMs: e.KEYHOLD_SHUTDOWN_GRACE_MS,
  };
}
