import { decodeJwt, decodeProtectedHeader } from "jose";
import { commaList } from "./allow-lists.ts";
import { claimAllowed, claimAt, globMatches } from "./oidc-claims.ts";

/**
 * The rules an OIDC, Kubernetes or AWS sign-in applies once its peer has vouched for the
 * credential, one rule at a time. The service refuses a login with the first rule that fails;
 * the console's credential tester shows every rule against a form's unsaved values. Both run
 * this code, so a credential the tester passes is one the service accepts (its signature and the
 * peer's answer aside), and one it refuses is refused for the same rule, with the same words.
 *
 * Also here: reading a pasted credential without checking it (a JWT's claims, a service account
 * token's account, `aws sts get-caller-identity` output or an ARN), for the tester.
 */

/** How a login answers a refusal: its status and message, exactly as the service sends them. */
export interface CredentialRefusal {
  statusCode: 400 | 401 | 403;
  message: string;
}

/** One rule of a sign-in, applied to one credential. */
export interface CredentialCheck {
  /** Stable id: `issuer`, `expiry`, `not-before`, `subject`, `audience`, `claim:<path>`, `mapping:<name>`,
   * `service-account`, `namespace`, `name`, `k8s-audience`, `account`, `principal`. */
  rule: string;
  /** What the rule asks, in words (`Subject matches "repo:acme/*"`). */
  label: string;
  /** `skip`: the rule is not configured, so it restricts nothing. */
  outcome: "pass" | "fail" | "skip";
  /** What the credential holds for this rule, in words. */
  detail: string;
  /** Set when the rule fails: the login's answer. */
  refusal?: CredentialRefusal;
}

/** The first failing rule's refusal; undefined when every rule passes or is skipped. */
export function firstRefusal(checks: readonly CredentialCheck[]): CredentialRefusal | undefined {
  return checks.find((check) => check.outcome === "fail")?.refusal;
}

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
const shown = (value: unknown) => (value === undefined ? "nothing" : JSON.stringify(value));
const denied = (message: string, statusCode: 400 | 401 | 403 = 401): CredentialRefusal => ({
  statusCode,
  message: `Access denied: ${message}`,
});

function check(rule: string, label: string, passed: boolean | null, detail: string, refusal: CredentialRefusal) {
  const outcome = passed === null ? "skip" : passed ? "pass" : "fail";
  return { rule, label, outcome, detail, ...(outcome === "fail" && { refusal }) } satisfies CredentialCheck;
}

// ---------------------------------------------------------------------------------------------
// OIDC

/** The settings of an identity's OIDC auth that decide a login (a form's values or the stored ones). */
export interface OidcRuleSettings {
  boundIssuer?: unknown;
  boundSubject?: unknown;
  boundAudiences?: unknown;
  boundClaims?: unknown;
  claimMetadataMapping?: unknown;
}

/** Seconds of clock difference a token's time claims are allowed; the service allows none. */
export const OIDC_CLOCK_TOLERANCE_SECONDS = 0;

/**
 * The issuer a token must name, exactly as the login hands it to the JWT library: the bound
 * issuer as stored (an empty one is still required, and only an empty `iss` equals it).
 */
export function oidcIssuerOf(settings: OidcRuleSettings): string {
  return String(settings.boundIssuer ?? "");
}

/**
 * Every rule of an OIDC login against a token's claims, in the order the service applies them:
 * issuer and time claims (checked with the signature), then subject, audiences, bound claims and
 * the claim metadata mapping. `now` is in milliseconds.
 */
export function oidcChecks(
  settings: OidcRuleSettings,
  claims: Record<string, unknown>,
  now: number,
): CredentialCheck[] {
  const checks: CredentialCheck[] = [];
  const seconds = Math.floor(now / 1000);
  // The issuer and time claims are checked with the signature, in the order and words of the
  // JWT library the service verifies with (jose).
  const issuer = oidcIssuerOf(settings);
  checks.push(
    check(
      "issuer",
      `Issuer is ${JSON.stringify(issuer)}`,
      claims.iss === issuer,
      claims.iss === undefined ? "The token names no issuer" : `The token's issuer is ${shown(claims.iss)}`,
      denied(claims.iss === undefined ? 'missing required "iss" claim' : 'unexpected "iss" claim value'),
    ),
  );
  if (claims.iat !== undefined && typeof claims.iat !== "number") {
    checks.push(
      check(
        "issued-at",
        "Issue time is a number",
        false,
        `"iat" is ${shown(claims.iat)}`,
        denied('"iat" claim must be a number'),
      ),
    );
  }
  const nbf = claims.nbf;
  if (nbf !== undefined) {
    checks.push(
      check(
        "not-before",
        "Already valid",
        typeof nbf === "number" && nbf <= seconds + OIDC_CLOCK_TOLERANCE_SECONDS,
        typeof nbf === "number" ? `Valid from ${new Date(nbf * 1000).toISOString()}` : `"nbf" is ${shown(nbf)}`,
        denied(typeof nbf === "number" ? '"nbf" claim timestamp check failed' : '"nbf" claim must be a number'),
      ),
    );
  }
  const exp = claims.exp;
  checks.push(
    check(
      "expiry",
      "Not expired",
      exp === undefined ? null : typeof exp === "number" && exp > seconds - OIDC_CLOCK_TOLERANCE_SECONDS,
      typeof exp === "number"
        ? `${exp > seconds ? "Expires" : "Expired"} at ${new Date(exp * 1000).toISOString()}`
        : exp === undefined
          ? "The token has no expiry"
          : `The token's "exp" is ${shown(exp)}`,
      denied(typeof exp === "number" ? '"exp" claim timestamp check failed' : '"exp" claim must be a number'),
    ),
  );

  const subject = text(settings.boundSubject);
  checks.push(
    check(
      "subject",
      subject ? `Subject matches ${JSON.stringify(subject)}` : "Any subject",
      subject ? typeof claims.sub === "string" && globMatches(claims.sub, subject) : null,
      `The token's subject is ${shown(claims.sub)}`,
      denied("OIDC subject not allowed.", 403),
    ),
  );

  const audiences = commaList(settings.boundAudiences);
  const aud = claims.aud;
  const tokenAudiences = (Array.isArray(aud) ? aud : typeof aud === "string" ? [aud] : []).filter(
    (entry): entry is string => typeof entry === "string",
  );
  checks.push(
    check(
      "audience",
      audiences.length > 0 ? `Audience is one of ${audiences.join(", ")}` : "Any audience",
      audiences.length > 0
        ? tokenAudiences.some((entry) => audiences.some((allowed) => globMatches(entry, allowed)))
        : null,
      tokenAudiences.length > 0 ? `The token is for ${tokenAudiences.join(", ")}` : "The token names no audience",
      denied("OIDC audience not allowed."),
    ),
  );

  const boundClaims = isRecord(settings.boundClaims) ? settings.boundClaims : {};
  for (const [path, allowed] of Object.entries(boundClaims)) {
    const value = claimAt(claims, path);
    const entries = commaList(allowed);
    checks.push(
      check(
        `claim:${path}`,
        `Claim ${path} is one of ${entries.join(", ") || "(nothing)"}`,
        value !== undefined && claimAllowed(value, entries),
        value === undefined ? `The token has no ${path} claim` : `The token's ${path} is ${shown(value)}`,
        value === undefined ? denied(`token has no ${path} field`) : denied("OIDC claim not allowed."),
      ),
    );
  }

  const mapping = isRecord(settings.claimMetadataMapping) ? settings.claimMetadataMapping : {};
  for (const [name, path] of Object.entries(mapping)) {
    const value = claimAt(claims, String(path));
    checks.push(
      check(
        `mapping:${name}`,
        `Carries ${name} from claim ${String(path)}`,
        value !== undefined,
        value === undefined ? `The token has no ${String(path)} claim` : `${name} would be ${mappedClaim(value)}`,
        denied(`token has no ${String(path)} field for the claim metadata mapping`),
      ),
    );
  }
  return checks;
}

/** A mapped claim as the token carries it into audit events: strings as they are, anything else as JSON. */
export function mappedClaim(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The claims the metadata mapping would carry, by name; undefined where the token lacks the claim. */
export function mappedClaims(settings: OidcRuleSettings, claims: Record<string, unknown>): Record<string, string> {
  const mapping = isRecord(settings.claimMetadataMapping) ? settings.claimMetadataMapping : {};
  const carried: Record<string, string> = {};
  for (const [name, path] of Object.entries(mapping)) {
    const value = claimAt(claims, String(path));
    if (value !== undefined) carried[name] = mappedClaim(value);
  }
  return carried;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A JWT's header and claims, read without checking its signature; undefined when it is not a JWT. */
export function readJwt(jwt: string): { header: Record<string, unknown>; claims: Record<string, unknown> } | undefined {
  try {
    return { header: decodeProtectedHeader(jwt.trim()), claims: decodeJwt(jwt.trim()) };
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Kubernetes

export interface KubernetesRuleSettings {
  allowedNamespaces?: unknown;
  allowedNames?: unknown;
  allowedAudience?: unknown;
}

/** What the cluster's token review says of a token (or, in the tester, what the token itself says). */
export interface ReviewedServiceAccount {
  /** `system:serviceaccount:<namespace>:<name>` */
  username?: string;
  audiences: readonly string[];
}

const SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

/** `system:serviceaccount:<namespace>:<name>` → its namespace and name; undefined for any other user. */
export function serviceAccountOf(username: string | undefined): { namespace: string; name: string } | undefined {
  if (!username?.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const [namespace, name, ...rest] = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(":");
  return namespace && name && rest.length === 0 ? { namespace, name } : undefined;
}

/** Every rule of a Kubernetes login after the token review, in the service's order. */
export function kubernetesChecks(
  settings: KubernetesRuleSettings,
  reviewed: ReviewedServiceAccount,
): CredentialCheck[] {
  const account = serviceAccountOf(reviewed.username);
  const checks: CredentialCheck[] = [
    check(
      "service-account",
      "Is a service account",
      account !== undefined,
      `The token's user is ${shown(reviewed.username)}`,
      {
        statusCode: 400,
        message: `The reviewed token's user "${reviewed.username ?? ""}" is not a service account`,
      },
    ),
  ];
  if (!account) return checks;
  const namespaces = commaList(settings.allowedNamespaces);
  checks.push(
    check(
      "namespace",
      namespaces.length > 0 ? `Namespace is one of ${namespaces.join(", ")}` : "Any namespace",
      namespaces.length > 0 ? namespaces.includes(account.namespace) : null,
      `The service account is in ${JSON.stringify(account.namespace)}`,
      denied("K8s namespace not allowed."),
    ),
  );
  const names = commaList(settings.allowedNames);
  checks.push(
    check(
      "name",
      names.length > 0 ? `Name is one of ${names.join(", ")}` : "Any service account name",
      names.length > 0 ? names.includes(account.name) : null,
      `The service account is ${JSON.stringify(account.name)}`,
      denied("K8s name not allowed."),
    ),
  );
  const audience = text(settings.allowedAudience);
  checks.push(
    check(
      "k8s-audience",
      audience ? `Audience is ${JSON.stringify(audience)}` : "Any audience",
      audience ? reviewed.audiences.includes(audience) : null,
      reviewed.audiences.length > 0
        ? `The token is for ${reviewed.audiences.join(", ")}`
        : "The token names no audience",
      denied("K8s audience not allowed."),
    ),
  );
  return checks;
}

/**
 * A service account token read without review: its user from `sub` (or the `kubernetes.io`
 * claim of projected tokens) and its audiences from `aud`; undefined when it is not a JWT.
 */
export function readServiceAccountToken(
  jwt: string,
): (ReviewedServiceAccount & { claims: Record<string, unknown> }) | undefined {
  const read = readJwt(jwt);
  if (!read) return undefined;
  const { claims } = read;
  const k8s = isRecord(claims["kubernetes.io"]) ? claims["kubernetes.io"] : undefined;
  const serviceAccount = k8s && isRecord(k8s.serviceaccount) ? k8s.serviceaccount : undefined;
  const fromProjected =
    typeof k8s?.namespace === "string" && typeof serviceAccount?.name === "string"
      ? `${SERVICE_ACCOUNT_PREFIX}${k8s.namespace}:${serviceAccount.name}`
      : undefined;
  const legacyNamespace = claims["kubernetes.io/serviceaccount/namespace"];
  const legacyName = claims["kubernetes.io/serviceaccount/service-account.name"];
  const fromLegacy =
    typeof legacyNamespace === "string" && typeof legacyName === "string"
      ? `${SERVICE_ACCOUNT_PREFIX}${legacyNamespace}:${legacyName}`
      : undefined;
  const username = typeof claims.sub === "string" ? claims.sub : (fromProjected ?? fromLegacy);
  const aud = claims.aud;
  const audiences = (Array.isArray(aud) ? aud : typeof aud === "string" ? [aud] : []).filter(
    (entry): entry is string => typeof entry === "string",
  );
  return { ...(username !== undefined && { username }), audiences, claims };
}

// ---------------------------------------------------------------------------------------------
// AWS

export interface AwsRuleSettings {
  allowedAccountIds?: unknown;
  allowedPrincipalArns?: unknown;
}

/** Who STS says signed the request (or, in the tester, who `get-caller-identity` or an ARN names). */
export interface AwsCaller {
  account: string;
  arn: string;
}

/** An assumed-role session's ARN as the role's ARN; any other ARN as it is. */
export function principalArnOf(arn: string): string {
  return arn.replace(/^arn:([^:]+):sts::(\d{12}):assumed-role\/([^/]+)\/.+$/, "arn:$1:iam::$2:role/$3");
}

/** An allowed-ARN entry, where `*` stands for any characters, matched against the whole ARN. */
export function arnMatches(arn: string, entry: string): boolean {
  const pattern = entry
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${pattern}$`).test(arn);
}

/** Every rule of an AWS login after STS has named the caller, in the service's order. */
export function awsChecks(settings: AwsRuleSettings, caller: AwsCaller): CredentialCheck[] {
  const accounts = commaList(settings.allowedAccountIds);
  const arns = commaList(settings.allowedPrincipalArns);
  const principal = principalArnOf(caller.arn);
  return [
    check(
      "account",
      accounts.length > 0 ? `Account is one of ${accounts.join(", ")}` : "Any account",
      accounts.length > 0 ? accounts.includes(caller.account) : null,
      `The caller is in account ${caller.account}`,
      { statusCode: 401, message: "AWS account ID not allowed." },
    ),
    check(
      "principal",
      arns.length > 0 ? `Principal matches ${arns.join(", ")}` : "Any principal",
      arns.length > 0 ? arns.some((entry) => arnMatches(principal, entry)) : null,
      principal === caller.arn ? `The principal is ${principal}` : `The principal is ${principal} (from ${caller.arn})`,
      { statusCode: 401, message: `AWS principal ARN not allowed. [principal-arn=${principal}]` },
    ),
  ];
}

const ARN = /^arn:[^:\s]+:(?:iam|sts)::(\d{12}):\S+$/;

/**
 * A pasted caller, read without asking STS: the JSON `aws sts get-caller-identity` prints
 * (`{"UserId", "Account", "Arn"}`) or a bare IAM/STS ARN (its account read from it);
 * undefined when it is neither.
 */
export function readAwsCaller(pasted: string): AwsCaller | undefined {
  const trimmed = pasted.trim();
  const bare = ARN.exec(trimmed);
  if (bare?.[1]) return { account: bare[1], arn: trimmed };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed.Arn !== "string") return undefined;
  const fromArn = ARN.exec(parsed.Arn)?.[1];
  const account = typeof parsed.Account === "string" ? parsed.Account : fromArn;
  return account ? { account, arn: parsed.Arn } : undefined;
}
