import { WRITTEN_AUDIT_EVENT_TYPES } from "@keyhold/contract/audit-events-written";

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

/**
 * The event types Keyhold writes (its declarations: Infisical's names where Infisical has them,
 * its own for the rest). The picker lists them first in each group; the other types stay
 * choosable, since the console may be talking to an Infisical server that writes them.
 */
export const PRODUCED_EVENT_TYPES: ReadonlySet<string> = new Set(WRITTEN_AUDIT_EVENT_TYPES);
