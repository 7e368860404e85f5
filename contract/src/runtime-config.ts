import { z } from "zod";
import { newRequestId } from "./errors.ts";
import { blockPrefix, parseTrustedIp } from "./trusted-ips.ts";

/**
 * What the service and the BFF share in reading their environment: the common variables'
 * schemas, `<NAME>_FILE` variables (a secret read from a file, as container secrets are
 * mounted), and one error line naming each variable that is wrong. Nothing here reads the
 * environment or the disk itself: the caller passes both in.
 */

export class ConfigError extends Error {
  override name = "ConfigError";
}

export const nodeEnvs = ["development", "production", "test"] as const;
export type NodeEnv = (typeof nodeEnvs)[number];

export const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof logLevels)[number];

/** `json`: one JSON object a line (what log collectors read); `pretty`: coloured lines for a person. */
export const logFormats = ["json", "pretty"] as const;
export type LogFormat = (typeof logFormats)[number];

/** An empty value counts as unset, as shells and compose files often leave them. */
export const unsetWhenEmpty = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

export const portVariable = (fallback: number) =>
  z.preprocess(
    unsetWhenEmpty,
    z.coerce
      .number({ message: "must be a port number (0-65535)" })
      .int("must be a port number (0-65535)")
      .min(0, "must be a port number (0-65535)")
      .max(65_535, "must be a port number (0-65535)")
      .default(fallback),
  );

export const optionalPortVariable = z.preprocess(
  unsetWhenEmpty,
  z.coerce
    .number({ message: "must be a port number (0-65535)" })
    .int("must be a port number (0-65535)")
    .min(0, "must be a port number (0-65535)")
    .max(65_535, "must be a port number (0-65535)")
    .optional(),
);

export const hostVariable = z.preprocess(
  unsetWhenEmpty,
  z
    .string()
    .trim()
    .regex(/^[\w.:-]+$/, "must be an address or host name to listen on, such as 127.0.0.1 or 0.0.0.0")
    .default("127.0.0.1"),
);

export const nodeEnvVariable = z.preprocess(
  unsetWhenEmpty,
  z.enum(nodeEnvs, { message: `must be one of ${nodeEnvs.join(", ")}` }).default("development"),
);

export const logLevelVariable = z.preprocess(
  unsetWhenEmpty,
  z.enum(logLevels, { message: `must be one of ${logLevels.join(", ")}` }).default("info"),
);

export const logFormatVariable = z.preprocess(
  unsetWhenEmpty,
  z.enum(logFormats, { message: `must be one of ${logFormats.join(", ")}` }).optional(),
);

/** `true`/`false` (also 1/0, yes/no); unset is `false`. */
export const flagVariable = z.preprocess(
  unsetWhenEmpty,
  z
    .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
    .optional()
    .transform((value) => value === "true" || value === "1" || value === "yes"),
);

/**
 * A URL with one of the given schemes and a host (or, for PostgreSQL, a `host` query
 * parameter naming a socket directory). The message never repeats the value: it may hold a password.
 */
export function urlVariable(schemes: readonly string[]) {
  const expected = schemes.map((scheme) => `${scheme}://`).join(" or ");
  return z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        ctx.addIssue({ code: "custom", message: `must be a ${expected} URL (it does not parse as a URL)` });
        return;
      }
      if (!schemes.includes(url.protocol.slice(0, -1))) {
        ctx.addIssue({ code: "custom", message: `must be a ${expected} URL, not ${url.protocol}//` });
      } else if (url.hostname === "" && !url.searchParams.has("host")) {
        ctx.addIssue({ code: "custom", message: `must name a host (${schemes[0]}://user:password@host:port/…)` });
      }
    });
}

/** Reads a file named by a `<NAME>_FILE` variable; throws with the reason it cannot. */
export type ReadTextFile = (path: string) => string;

/**
 * For each name, a `<NAME>_FILE` variable is read (its content, without the trailing line
 * break) in place of `<NAME>`. Setting both is an error, as is a file that cannot be read.
 */
export function withFileVariables(
  env: Record<string, string | undefined>,
  names: readonly string[],
  readTextFile: ReadTextFile,
): Record<string, string | undefined> {
  const resolved = { ...env };
  const problems: string[] = [];
  for (const name of names) {
    const file = env[`${name}_FILE`]?.trim();
    if (!file) continue;
    if (env[name]?.trim()) {
      problems.push(`${name}_FILE: set either ${name} or ${name}_FILE, not both`);
      continue;
    }
    try {
      resolved[name] = readTextFile(file).replace(/\r?\n$/, "");
    } catch (error) {
      const reason = (error as { code?: string }).code ?? (error as Error).message;
      problems.push(`${name}_FILE: cannot read ${file} (${reason})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  return resolved;
}

/**
 * Parses the environment with a schema; on failure, one line naming every variable that is
 * wrong and why: `Invalid configuration: DATABASE_URL: must be a postgres:// URL; PORT: …`.
 */
export function parseEnvironment<T extends z.ZodType>(schema: T, env: Record<string, unknown>): z.output<T> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    `Invalid configuration: ${parsed.error.issues
      .map((issue) => `${issue.path.join(".") || "environment"}: ${issue.message}`)
      .join("; ")}`,
  );
}

/** What an incoming X-Request-Id may be to be kept: a UUID, Infisical's "req-…" ids and the like. */
const REQUEST_ID = /^[A-Za-z0-9][\w.:-]{0,127}$/;

/** The X-Request-Id a caller sent when it is a plausible id, else a new one ("req-" and 14 letters or digits). */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === "string" && REQUEST_ID.test(header) ? header : newRequestId();
}

/** Pretty lines when asked (LOG_FORMAT=pretty) or, unless told, at a terminal outside production. */
export function wantsPrettyLogs(
  config: { logFormat: LogFormat | undefined; nodeEnv: NodeEnv },
  isTty: boolean = process.stdout.isTTY === true,
): boolean {
  return config.logFormat ? config.logFormat === "pretty" : isTty && config.nodeEnv !== "production";
}

/**
 * Field names under which credentials travel anywhere: the API's bodies, the BFF's sessions,
 * headers. Nothing logs them on purpose (no header or body is logged); redacting them is the
 * safety net for a log call that passes such an object by mistake.
 */
const credentialFields = [
  "accessToken",
  "token",
  "bootstrapToken",
  "secretValue",
  "clientSecret",
  "password",
  "tokenReviewerJwt",
  "jwt",
  "iamRequestHeaders",
  "iamRequestBody",
  "authorization",
  "cookie",
  "rootKey",
];

/** pino `redact` paths for the service's and the BFF's loggers. */
export const logRedactPaths = [
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers["set-cookie"]',
  'headers["x-api-key"]',
  ...credentialFields,
  ...credentialFields.map((field) => `*.${field}`),
  ...credentialFields.map((field) => `*.*.${field}`),
];

/** One address or CIDR block as `address/prefix`, or undefined when the entry is neither (the trusted-IP rule). */
export function cidrBlockOf(entry: string): string | undefined {
  const parsed = parseTrustedIp(entry);
  return parsed && `${parsed.ipAddress}/${blockPrefix(parsed)}`;
}

/**
 * KEYHOLD_TRUSTED_PROXIES: comma-separated addresses or CIDR blocks of the proxies whose
 * X-Forwarded-For is believed; empty or unset trusts none (a forwarded header then changes
 * nothing).
 */
export const trustedProxiesVariable = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const blocks: string[] = [];
    for (const entry of (value ?? "").split(",").map((e) => e.trim())) {
      if (entry === "") continue;
      const block = cidrBlockOf(entry);
      if (block) blocks.push(block);
      else ctx.addIssue({ code: "custom", message: `"${entry}" is not an IPv4 or IPv6 address or CIDR block` });
    }
    return blocks;
  });
