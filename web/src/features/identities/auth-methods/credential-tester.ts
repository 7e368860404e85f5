import {
  awsChecks,
  type CredentialCheck,
  kubernetesChecks,
  OIDC_CLOCK_TOLERANCE_SECONDS,
  oidcChecks,
  principalArnOf,
  readAwsCaller,
  readJwt,
  readServiceAccountToken,
  serviceAccountOf,
} from "@keyhold/contract/credential-rules";
import type { CredentialTesterSpec } from "./descriptor";

/*
 * The credential tester's reading of a pasted credential: decoded here, in the browser, with the
 * service's own rules (the contract's credential-rules) applied to the form's unsaved settings.
 * Nothing pasted leaves this module; the dry run is a separate, explicit request.
 */

export interface Fact {
  label: string;
  value: string;
}

export interface Decoded {
  /** What the credential says, in the order a person checks it. */
  facts: Fact[];
  /** Parts of the credential shown whole, collapsed (a JWT's header and claims). */
  parts: { title: string; value: Record<string, unknown> }[];
  /** When the credential expires (milliseconds), for a live countdown. */
  expiresAt?: number;
  /** Every rule of the login, in the service's order. */
  checks: CredentialCheck[];
}

export type Reading = { ok: true; decoded: Decoded } | { ok: false; message: string };

type Settings = Record<string, unknown>;

const list = (values: readonly string[]) => (values.length > 0 ? values.join(", ") : "none");
const words = (value: unknown) =>
  typeof value === "string" ? value : value === undefined ? "none" : JSON.stringify(value);

function readOidc(pasted: string, settings: Settings, now: number): Reading {
  const jwt = readJwt(pasted);
  if (!jwt) return { ok: false, message: "This is not a JWT: expected three base64url parts separated by dots." };
  const { header, claims } = jwt;
  const aud = claims.aud;
  const facts: Fact[] = [
    { label: "Issuer", value: words(claims.iss) },
    { label: "Subject", value: words(claims.sub) },
    { label: "Audiences", value: Array.isArray(aud) ? list(aud.map(String)) : words(aud) },
    { label: "Clock tolerance", value: `${OIDC_CLOCK_TOLERANCE_SECONDS} seconds (expiry and not-before are exact)` },
  ];
  return {
    ok: true,
    decoded: {
      facts,
      parts: [
        { title: "Header", value: header },
        { title: "Claims", value: claims },
      ],
      ...(typeof claims.exp === "number" && { expiresAt: claims.exp * 1000 }),
      checks: oidcChecks(settings, claims, now),
    },
  };
}

function readKubernetes(pasted: string, settings: Settings): Reading {
  const token = readServiceAccountToken(pasted);
  if (!token) return { ok: false, message: "This is not a service account token: expected a JWT." };
  const account = serviceAccountOf(token.username);
  const facts: Fact[] = account
    ? [
        { label: "Namespace", value: account.namespace },
        { label: "Name", value: account.name },
      ]
    : [{ label: "User", value: words(token.username) }];
  facts.push({ label: "Audiences", value: list(token.audiences) });
  const exp = token.claims.exp;
  return {
    ok: true,
    decoded: {
      facts,
      parts: [{ title: "Claims", value: token.claims }],
      ...(typeof exp === "number" && { expiresAt: exp * 1000 }),
      checks: kubernetesChecks(settings, token),
    },
  };
}

function readAws(pasted: string, settings: Settings): Reading {
  const caller = readAwsCaller(pasted);
  if (!caller) {
    return {
      ok: false,
      message: "Paste the JSON that aws sts get-caller-identity prints, or an IAM or STS ARN.",
    };
  }
  const principal = principalArnOf(caller.arn);
  const facts: Fact[] = [
    { label: "Account", value: caller.account },
    { label: "Principal", value: principal },
  ];
  if (principal !== caller.arn) facts.push({ label: "Assumed-role session", value: caller.arn });
  return { ok: true, decoded: { facts, parts: [], checks: awsChecks(settings, caller) } };
}

/** The pasted credential read and every rule applied to the settings; `now` in milliseconds. */
export function testCredential(
  kind: CredentialTesterSpec["kind"],
  pasted: string,
  settings: Settings,
  now: number,
): Reading {
  if (kind === "oidc") return readOidc(pasted, settings, now);
  if (kind === "kubernetes") return readKubernetes(pasted, settings);
  return readAws(pasted, settings);
}

const AWS_LOGIN_FIELDS = ["iamHttpRequestMethod", "iamRequestBody", "iamRequestHeaders"] as const;

/**
 * The credential part of a dry run's body: the pasted token, or for AWS the signed request as a
 * login body carries it (STS must see the signature; get-caller-identity output cannot be replayed).
 */
export function dryRunCredential(
  kind: CredentialTesterSpec["kind"],
  pasted: string,
): { ok: true; credential: Record<string, string> } | { ok: false; message: string } {
  if (kind !== "aws") {
    return pasted.trim() ? { ok: true, credential: { jwt: pasted.trim() } } : { ok: false, message: "Paste a token" };
  }
  let body: unknown;
  try {
    body = JSON.parse(pasted);
  } catch {
    return { ok: false, message: "Paste the login body as JSON" };
  }
  const record = (body ?? {}) as Record<string, unknown>;
  const missing = AWS_LOGIN_FIELDS.filter((name) => typeof record[name] !== "string" || record[name] === "");
  if (missing.length > 0) return { ok: false, message: `The login body has no ${missing.join(", ")}` };
  return { ok: true, credential: Object.fromEntries(AWS_LOGIN_FIELDS.map((name) => [name, String(record[name])])) };
}
