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
import { type OidcIdentityRule, OidcIdentityRuleSchema } from "@keyhold/contract";
import { z } from "zod";

export { ConfigError } from "@keyhold/contract/runtime-config";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

const minutes = (n: number) => n * 60_000;

/** Variables that may instead be given as `<NAME>_FILE`, the path of a file holding the value. */
const fileVariables = [
  "REDIS_URL",
  "KEYHOLD_OIDC_CLIENT_SECRET",
  "KEYHOLD_OIDC_PRIVATE_KEY",
  "KEYHOLD_OIDC_IDENTITY_RULES",
] as const;

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

const optionalText = z.preprocess(unsetWhenEmpty, z.string().trim().min(1).optional());

const issuerVariable = z.preprocess(
  unsetWhenEmpty,
  z
    .url({ protocol: /^https?$/, message: "must be the provider's issuer URL, such as https://id.example.com" })
    .refine(
      (u) => !URL.canParse(u) || new URL(u).protocol === "https:" || LOOPBACK_HOSTS.test(new URL(u).hostname),
      "must use https:// (plain http:// only for a provider on this machine)",
    )
    .optional(),
);

const rulesVariable = z.preprocess(
  unsetWhenEmpty,
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a JSON array of rules" });
        return z.NEVER;
      }
    })
    .pipe(z.array(OidcIdentityRuleSchema, { message: "must be a JSON array of rules" }))
    .optional(),
);

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
  KEYHOLD_PUBLIC_URL: z.preprocess(
    unsetWhenEmpty,
    z
      .url({ protocol: /^https?$/, message: "must be the console's origin, such as https://keyhold.example.com" })
      .transform((u) => new URL(u).origin)
      .optional(),
  ),
  KEYHOLD_OIDC_ISSUER: issuerVariable,
  KEYHOLD_OIDC_CLIENT_ID: optionalText,
  KEYHOLD_OIDC_CLIENT_SECRET: optionalText,
  KEYHOLD_OIDC_PRIVATE_KEY: optionalText,
  KEYHOLD_OIDC_SCOPES: z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .default("openid email profile offline_access")
      .transform((s) => [...new Set(s.split(/\s+/).filter(Boolean))])
      .refine((scopes) => scopes.includes("openid"), "must include openid"),
  ),
  KEYHOLD_OIDC_IDENTITY_ID: z.preprocess(
    unsetWhenEmpty,
    z.uuid({ message: "must be an identity ID (a UUID)" }).optional(),
  ),
  KEYHOLD_OIDC_IDENTITY_RULES: rulesVariable,
  KEYHOLD_OIDC_PROVIDER_NAME: optionalText,
  KEYHOLD_CREDENTIAL_SIGN_IN: z.preprocess(unsetWhenEmpty, flagVariable.default(true)),
});

/** Single sign-on as configured (KEYHOLD_OIDC_*); absent when KEYHOLD_OIDC_ISSUER is unset. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** How the BFF authenticates at the provider's token endpoint. */
  clientAuth: { method: "client_secret_basic"; secret: string } | { method: "private_key_jwt"; privateKey: string };
  scopes: string[];
  /** Everyone's identity, or the fallback when no rule matches. */
  identityId: string | undefined;
  /** First match wins. */
  rules: OidcIdentityRule[];
  /** Shown on the sign-in button and in messages. */
  providerName: string;
  /** on: everyone may sign in; test-only: no identity or rule yet, so only an admin's test sign-ins run. */
  mode: "on" | "test-only";
}

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
  /** The console's public origin (KEYHOLD_PUBLIC_URL); undefined: taken from each request. */
  publicUrl: string | undefined;
  oidc: OidcConfig | undefined;
  /** Whether the access-token and client-secret sign-in forms are offered (KEYHOLD_CREDENTIAL_SIGN_IN). */
  credentialSignIn: boolean;
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
  const oidc = oidcConfig(e);
  if (!e.KEYHOLD_CREDENTIAL_SIGN_IN && oidc?.mode !== "on") {
    throw new ConfigError(
      "Invalid configuration: KEYHOLD_CREDENTIAL_SIGN_IN: can be false only when single sign-on is on (KEYHOLD_OIDC_ISSUER, KEYHOLD_OIDC_CLIENT_ID and KEYHOLD_OIDC_IDENTITY_ID or KEYHOLD_OIDC_IDENTITY_RULES), or nobody could sign in",
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
    publicUrl: e.KEYHOLD_PUBLIC_URL,
    oidc,
    credentialSignIn: e.KEYHOLD_CREDENTIAL_SIGN_IN,
  };
}

function oidcConfig(e: z.output<typeof EnvSchema>): OidcConfig | undefined {
  const issuer = e.KEYHOLD_OIDC_ISSUER;
  if (issuer === undefined) {
    const stray = (
      [
        "KEYHOLD_OIDC_CLIENT_ID",
        "KEYHOLD_OIDC_CLIENT_SECRET",
        "KEYHOLD_OIDC_PRIVATE_KEY",
        "KEYHOLD_OIDC_IDENTITY_ID",
        "KEYHOLD_OIDC_IDENTITY_RULES",
      ] as const
    ).filter((name) => e[name] !== undefined);
    if (stray.length > 0) {
      throw new ConfigError(`Invalid configuration: KEYHOLD_OIDC_ISSUER: is required when ${stray.join(", ")} is set`);
    }
    return undefined;
  }
  const problems: string[] = [];
  if (e.KEYHOLD_OIDC_CLIENT_ID === undefined)
    problems.push("KEYHOLD_OIDC_CLIENT_ID: is required with KEYHOLD_OIDC_ISSUER");
  const secret = e.KEYHOLD_OIDC_CLIENT_SECRET;
  const privateKey = e.KEYHOLD_OIDC_PRIVATE_KEY;
  if ((secret === undefined) === (privateKey === undefined)) {
    problems.push(
      "KEYHOLD_OIDC_CLIENT_SECRET: set one of KEYHOLD_OIDC_CLIENT_SECRET(_FILE) or KEYHOLD_OIDC_PRIVATE_KEY_FILE",
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  const rules = e.KEYHOLD_OIDC_IDENTITY_RULES ?? [];
  return {
    issuer,
    clientId: e.KEYHOLD_OIDC_CLIENT_ID ?? "",
    clientAuth:
      secret !== undefined
        ? { method: "client_secret_basic", secret }
        : { method: "private_key_jwt", privateKey: privateKey ?? "" },
    scopes: e.KEYHOLD_OIDC_SCOPES,
    identityId: e.KEYHOLD_OIDC_IDENTITY_ID,
    rules,
    providerName: e.KEYHOLD_OIDC_PROVIDER_NAME ?? new URL(issuer).host,
    mode: e.KEYHOLD_OIDC_IDENTITY_ID !== undefined || rules.length > 0 ? "on" : "test-only",
  };
}
