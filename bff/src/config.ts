import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  ConfigError,
  flagVariable,
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

export { ConfigError } from "@keyhold/contract/runtime-config";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

const minutes = (n: number) => n * 60_000;

/** Variables that may instead be given as `<NAME>_FILE`, the path of a file holding the value. */
const fileVariables = ["REDIS_URL"] as const;

const EnvSchema = z.object({
  NODE_ENV: nodeEnvVariable,
  PORT: portVariable(8080),
  HOST: hostVariable,
  KEYHOLD_UPSTREAM_URL: z.preprocess(
    unsetWhenEmpty,
    z
      .url({
        protocol: /^https?$/,
        message: "must be an http:// or https:// origin such as https://secrets.example.com",
      })
      .default("http://127.0.0.1:8081")
      .refine((u) => {
        // Reported once, by the URL check above, when it does not parse.
        if (!URL.canParse(u)) return true;
        const url = new URL(u);
        return url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
      }, "must be an origin such as https://secrets.example.com (no path, query or credentials)")
      .transform((u) => new URL(u).origin),
  ),
  REDIS_URL: z.preprocess(unsetWhenEmpty, urlVariable(["redis", "rediss"]).optional()),
  /** Session cookies without `Secure`, for a console reached over plain HTTP on purpose. */
  KEYHOLD_INSECURE_COOKIES: flagVariable,
  KEYHOLD_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  KEYHOLD_SESSION_IDLE_MINUTES: z.coerce.number().positive().default(15),
  KEYHOLD_SESSION_ABSOLUTE_MINUTES: z.coerce
    .number()
    .positive()
    .default(8 * 60),
  KEYHOLD_LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  KEYHOLD_LOGIN_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  KEYHOLD_WEB_DIST: z.string().trim().min(1).default(`${repoRoot}web/dist`),
  LOG_LEVEL: logLevelVariable,
  LOG_FORMAT: logFormatVariable,
  METRICS_PORT: optionalPortVariable,
  METRICS_HOST: hostVariable,
  KEYHOLD_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Proxies in front of the BFF (nginx, a load balancer) whose X-Forwarded-For names the browser. */
  KEYHOLD_TRUSTED_PROXIES: trustedProxiesVariable,
});

/** Everything the BFF reads from its environment, validated once at start. */
export interface Config {
  nodeEnv: NodeEnv;
  port: number;
  host: string;
  /** Origin only (scheme, host, port): every upstream URL is this plus a contract path. */
  upstreamOrigin: string;
  redisUrl: string | undefined;
  /**
   * False (the default): the session cookie is `__Host-keyhold` with `Secure`, which browsers
   * send over HTTPS and to localhost only. True: `keyhold` without `Secure`, for plain HTTP.
   */
  insecureCookies: boolean;
  upstreamTimeoutMs: number;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  loginRateLimit: { max: number; windowMs: number };
  /** The built SPA, or undefined when it has not been built. */
  webDistDir: string | undefined;
  logLevel: LogLevel;
  /** Unset: pretty lines when standard output is a terminal outside production, JSON otherwise. */
  logFormat: LogFormat | undefined;
  /** Where Prometheus metrics are served (GET /metrics); undefined: no metrics listener. */
  metrics: { host: string; port: number } | undefined;
  /** How long in-flight requests may run on after SIGTERM before their connections are closed. */
  shutdownGraceMs: number;
  /** CIDR blocks of the proxies whose X-Forwarded-For is believed (KEYHOLD_TRUSTED_PROXIES). */
  trustedProxies: string[];
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const e = parseEnvironment(
    EnvSchema,
    withFileVariables(env, fileVariables, (file) => readFileSync(file, "utf8")),
  );
  if (e.KEYHOLD_SESSION_IDLE_MINUTES > e.KEYHOLD_SESSION_ABSOLUTE_MINUTES) {
    throw new ConfigError(
      "Invalid configuration: KEYHOLD_SESSION_IDLE_MINUTES: cannot exceed KEYHOLD_SESSION_ABSOLUTE_MINUTES",
    );
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    upstreamOrigin: e.KEYHOLD_UPSTREAM_URL,
    redisUrl: e.REDIS_URL,
    insecureCookies: e.KEYHOLD_INSECURE_COOKIES,
    upstreamTimeoutMs: e.KEYHOLD_UPSTREAM_TIMEOUT_MS,
    sessionIdleMs: minutes(e.KEYHOLD_SESSION_IDLE_MINUTES),
    sessionAbsoluteMs: minutes(e.KEYHOLD_SESSION_ABSOLUTE_MINUTES),
    loginRateLimit: { max: e.KEYHOLD_LOGIN_RATE_LIMIT, windowMs: e.KEYHOLD_LOGIN_RATE_WINDOW_SECONDS * 1000 },
    webDistDir: existsSync(`${e.KEYHOLD_WEB_DIST}/index.html`) ? e.KEYHOLD_WEB_DIST : undefined,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    metrics: e.METRICS_PORT === undefined ? undefined : { host: e.METRICS_HOST, port: e.METRICS_PORT },
    shutdownGraceMs: e.KEYHOLD_SHUTDOWN_GRACE_MS,
    trustedProxies: e.KEYHOLD_TRUSTED_PROXIES,
  };
}
