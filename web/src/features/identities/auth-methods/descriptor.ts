import { type AnyEndpoint, endpoints } from "@keyhold/contract";
import type { z } from "zod";

/** How a field is edited; each kind has one input component and one form ↔ wire conversion. */
export type FieldKind =
  | "text"
  | "textarea"
  /** A duration in human units ("30d"); the wire carries seconds. `expiry` adds when a token issued now expires. */
  | "ttl"
  | "number"
  | "switch"
  | "trusted-ips"
  /** A credential the server keeps and never shows: empty on edit keeps it, "Clear" sends null. */
  | "secret"
  /** A string map written one `key=value` per line. */
  | "pairs";

export interface FieldSpec {
  /** The wire name, in the attach and update bodies and in the record. */
  name: string;
  label: string;
  kind: FieldKind;
  description?: string;
  /**
   * A sample value, shown at the end of the help text ("For example: default, ci"), never inside
   * the empty field, where it would read as a value already set.
   */
  example?: string;
  /** Required before the server is asked (the contract may require it only conditionally). */
  required?: boolean;
  /** For "ttl": whether the hint gives a token's absolute expiry (true) or only the duration. */
  expiry?: boolean;
  /** What an empty value (or 0) means, for the summary: "Unlimited". */
  emptyMeans?: string;
  /**
   * Who the method admits while this field restricts nothing (left empty; for trusted IPs,
   * 0.0.0.0/0 with ::/0): "any namespace". The help text says it, the form warns while it is so and
   * saves only once that is acknowledged, and the summary shows it.
   */
  unrestricted?: string;
  /** For "ttl": the field whose value this one may not exceed (the TTL within the max TTL). */
  atMost?: string;
}

export interface SummarySpec {
  label: string;
  /** A record field; formatted by the field of that name, or shown as text. */
  field: string;
  mono?: boolean;
  copy?: boolean;
}

export type AuthMethodKey = "tokenAuth" | "universalAuth" | "kubernetesAuth" | "oidcAuth" | "awsAuth";
export type AuthMethodName = "token-auth" | "universal-auth" | "kubernetes-auth" | "oidc-auth" | "aws-auth";

/** A configuration record as the console keeps it: write-only fields removed. */
export type AuthMethodRecord = Record<string, unknown>;

export interface AuthMethodConfig {
  record: AuthMethodRecord;
  /** The write-only fields that hold a value on the server. */
  secretsSet: readonly string[];
}

/**
 * A method whose sign-in a peer vouches for (an OIDC provider, a cluster, STS) can test a pasted
 * credential against the form's unsaved values: decoded in the browser, then, on request, a dry
 * run of the real login through the service.
 */
export interface CredentialTesterSpec {
  /** Which reader and rules of `@keyhold/contract/credential-rules` apply. */
  kind: "oidc" | "kubernetes" | "aws";
  /** What is pasted, as the field's label says it. */
  credential: string;
  placeholder: string;
  /** What decoding in the browser leaves unchecked ("signature not checked"). */
  unchecked: string;
  /** The form fields the rules read and the dry run sends as settings. */
  settings: readonly string[];
  /** The dry-run login endpoint, and what it needs pasted when that differs from the decoded credential. */
  dryRun: { endpoint: AnyEndpoint; credential?: { label: string; placeholder: string } };
}

/** One identity auth method as data: everything the shared form shell, hooks and section need. */
export interface AuthMethodDescriptor {
  key: AuthMethodKey;
  /** The wire name, as `identity.authMethods` lists it. */
  name: AuthMethodName;
  label: string;
  description: string;
  envelope: string;
  endpoints: { attach: AnyEndpoint; get: AnyEndpoint; update: AnyEndpoint; revoke: AnyEndpoint };
  attachBody: z.ZodType;
  updateBody: z.ZodType;
  /** Form sections, in order; each lists its fields. */
  sections: readonly { title: string; fields: readonly FieldSpec[] }[];
  /** The key settings shown for an attached method. */
  summary: readonly SummarySpec[];
  /** Present for methods with a peer credential to test. */
  tester?: CredentialTesterSpec;
}

/** The four contract endpoints of a method, by its endpoint id prefix. */
export function methodEndpoints<K extends AuthMethodKey>(key: K) {
  return {
    attach: endpoints[`${key}.attach`],
    get: endpoints[`${key}.get`],
    update: endpoints[`${key}.update`],
    revoke: endpoints[`${key}.revoke`],
  };
}

export function fieldsOf(descriptor: AuthMethodDescriptor): FieldSpec[] {
  return descriptor.sections.flatMap((section) => section.fields);
}

/** A field's help text, then what it admits while it restricts nothing, then a sample value. */
export function fieldHelp(field: FieldSpec): string | undefined {
  const open = field.unrestricted
    ? field.kind === "trusted-ips"
      ? `0.0.0.0/0 with ::/0 admits ${field.unrestricted}.`
      : `Empty admits ${field.unrestricted}.`
    : undefined;
  const example = field.example ? `For example: ${field.example}` : undefined;
  return [field.description, open, example].filter(Boolean).join(" ") || undefined;
}
