import { KEYHOLD_AUDIT_EVENT_TYPES } from "@keyhold/contract";

/** Words an event type name spells in lower case that read better as acronyms or brand names. */
const WORDS: Record<string, string> = {
  aws: "AWS",
  gcp: "GCP",
  oidc: "OIDC",
  jwt: "JWT",
  ldap: "LDAP",
  saml: "SAML",
  scim: "SCIM",
  ssh: "SSH",
  kms: "KMS",
  pki: "PKI",
  ca: "CA",
  ip: "IP",
  ips: "IPs",
  id: "ID",
  tls: "TLS",
  oci: "OCI",
  spiffe: "SPIFFE",
  github: "GitHub",
  gitlab: "GitLab",
  k8: "Kubernetes",
  acme: "ACME",
  mfa: "MFA",
  totp: "TOTP",
  hsm: "HSM",
  kmip: "KMIP",
  pam: "PAM",
  crl: "CRL",
  est: "EST",
  ua: "universal auth",
};

/** "update-identity-oidc-auth" → "Update identity OIDC auth". */
export function eventTypeLabel(type: string): string {
  const words = type.split(/[-_]/).filter(Boolean);
  const text = words.map((word, index) => WORDS[word] ?? (index === 0 ? word : word.toLowerCase())).join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const EVENT_GROUPS = [
  "Secrets",
  "Sign-ins",
  "Auth methods and tokens",
  "Identities",
  "Projects and environments",
  "Roles and privileges",
  "Audit log",
  "Integrations",
  "Other",
] as const;
export type EventGroup = (typeof EVENT_GROUPS)[number];

const AUTH_METHOD =
  /(universal|token|kubernetes|oidc|jwt|aws|gcp|azure|ldap|spiffe|oci|tls-cert|alicloud)-auth|client-secret|access-token|service-token/;

/** Which group of the event type picker a type belongs to, from the words of its name. */
export function eventTypeGroup(type: string): EventGroup {
  if (type.startsWith("login-") || type.includes("-login")) return "Sign-ins";
  if (AUTH_METHOD.test(type)) return "Auth methods and tokens";
  if (/audit-log|view-audit/.test(type)) return "Audit log";
  if (/secret|folder|snapshot|secret-import|commit|rollback/.test(type) && !type.includes("sharing")) return "Secrets";
  if (/role|privilege|permission/.test(type)) return "Roles and privileges";
  if (/identity/.test(type)) return "Identities";
  if (/project|workspace|environment|membership|trusted-ip/.test(type)) return "Projects and environments";
  if (/integration|sync/.test(type)) return "Integrations";
  return "Other";
}

export interface EventTypeOption {
  type: string;
  label: string;
  group: EventGroup;
  /** Whether this server writes events of the type (listed first in each group). */
  produced: boolean;
}

/**
 * Every event type a filter may name, grouped; in each group the types Keyhold writes come
 * first, then the others (which a real Infisical server may write), each part by label.
 */
export function eventTypeOptions(all: readonly string[], produced: ReadonlySet<string>): EventTypeOption[] {
  const options = all.map((type) => ({
    type,
    label: eventTypeLabel(type),
    group: eventTypeGroup(type),
    produced: produced.has(type),
  }));
  const groupIndex = (group: EventGroup) => EVENT_GROUPS.indexOf(group);
  return options.sort(
    (a, b) =>
      groupIndex(a.group) - groupIndex(b.group) ||
      Number(b.produced) - Number(a.produced) ||
      a.label.localeCompare(b.label),
  );
}

const KEYHOLD_WRITES = [
  "get-secrets",
  "get-secret",
  "create-secret",
  "create-secrets",
  "update-secret",
  "update-secrets",
  "delete-secret",
  "delete-secrets",
  "get-secret-versions",
  "get-secret-snapshot",
  "create-folder",
  "update-folder",
  "delete-folder",
  "get-secret-imports",
  "create-secret-import",
  "update-secret-import",
  "delete-secret-import",
  "create-identity",
  "update-identity",
  "delete-identity",
  "create-identity-project-membership",
  "update-identity-project-membership",
  "delete-identity-project-membership",
  "create-identity-project-additional-privilege",
  "update-identity-project-additional-privilege",
  "delete-identity-project-additional-privilege",
  "create-identity-universal-auth-client-secret",
  "revoke-identity-universal-auth-client-secret",
  "get-identity-universal-auth-client-secret",
  "get-identity-universal-auth-client-secret-by-id",
  "clear-identity-universal-auth-lockouts",
  "create-token-identity-token-auth",
  "update-token-identity-token-auth",
  "revoke-token-identity-token-auth",
  "get-tokens-identity-token-auth",
  "create-project",
  "update-project",
  "delete-project",
  "create-environment",
  "update-environment",
  "delete-environment",
  "add-project-members",
  "create-project-role",
  "update-project-role",
  "delete-project-role",
  "get-project-role",
  "list-project-roles",
  "create-tag",
  "delete-tag",
  "create-integration",
  "update-integration",
  "delete-integration",
  "authorize-integration",
  "update-integration-auth",
  "unauthorize-integration",
  "get-project-pit-commits",
  "get-project-pit-commit-changes",
  "get-project-pit-commit-count",
  "pit-get-folder-state",
  "pit-compare-folder-states",
  "pit-process-new-commit-raw",
  "pit-revert-commit",
  "pit-rollback-commit",
  "view-audit-logs",
  "update-org",
];
/** The five auth methods Keyhold has: each is attached, read, changed, revoked and signed in with. */
const AUTH_METHODS = ["universal-auth", "token-auth", "kubernetes-auth", "oidc-auth", "aws-auth"];
const authMethodTypes = AUTH_METHODS.flatMap((method) =>
  ["add", "get", "update", "revoke", "login"].flatMap((verb) =>
    verb === "login" ? [`login-identity-${method}`, `login-identity-${method}-failed`] : [`${verb}-identity-${method}`],
  ),
);

/**
 * The event types Keyhold writes (its declarations: Infisical's names where Infisical has them,
 * its own for the rest). The picker lists them first in each group; the other types stay
 * choosable, since the console may be talking to an Infisical server that writes them.
 */
export const PRODUCED_EVENT_TYPES: ReadonlySet<string> = new Set([
  ...KEYHOLD_WRITES,
  ...authMethodTypes,
  ...KEYHOLD_AUDIT_EVENT_TYPES,
]);
