import {
  AccessTokenRecordSchema,
  AuditLogStreamSchema,
  CreatedIdentitySchema,
  CreatedProjectSchema,
  IdentityKubernetesAuthSchema,
  IdentitySchema,
  IdentitySummarySchema,
  IdentityTokenAuthSchema,
  OrgListedIdentitySchema,
  IdentityUniversalAuthSchema,
  ImportedSecretSchema,
  LegacyAuditLogStreamSchema,
  ProjectMemberIdentitySchema,
  ProjectMemberUserSchema,
  ProjectRecordSchema,
  ProjectRoleSchema,
  ProjectSchema,
  RevokedKubernetesAuthSchema,
  SecretDetailSchema,
  ListedSecretSchema,
  SecretReadSchema,
  SecretSchema,
  SecretVersionSchema,
  type ServerFeatureName,
} from "@keyhold/contract";
import type { z } from "zod";
import { credentialsOfLegacy, maskHeaderValues } from "./audit-streams.ts";
import type { FieldRule, RecordRules } from "./walk.ts";

/**
 * The server features the console adapts to, with the sentence it shows where one is missing.
 * A feature is assumed present until a response proves otherwise.
 */
export const serverFeatures: Record<ServerFeatureName, string> = {
  auditChainVerification:
    "This server does not verify its audit log: the hash chain and its verification are Keyhold's own, which Infisical does not have.",
  auditStreamDelivery:
    "This server does not report how delivery to a stream goes, nor send test events: both are Keyhold's own.",
  auditLogs: "This server's plan does not keep audit logs.",
  deleteProtection: "This server does not support delete protection.",
  dryRunLogin:
    "This server cannot dry-run a sign-in: trying a credential without issuing a token is Keyhold's own, which Infisical does not have.",
  multipleAuthMethods: "This server allows one auth method per identity.",
  orgAuditRetention:
    "This server has no organization-wide retention setting: its plan decides how long events are kept.",
  privilegesV2: "This server has only the older, slug-addressed identity privileges.",
  projectDescription: "This server does not keep project descriptions.",
};
export type ServerFeature = ServerFeatureName;

const constant =
  (value: unknown): FieldRule["fill"] =>
  () =>
    value;

/**
 * A write-only credential as the browser gets it: a stand-in when one is set, never the value
 * (the console shows "Set (never shown)" and sends a new one only when someone types it).
 */
export const WITHHELD = "(withheld)";
const withheld = (value: unknown): unknown => (typeof value === "string" && value !== "" ? WITHHELD : value);

/** The one auth method of older servers (`authMethod`, possibly null) as the newer list. */
const authMethodsFromSingle: FieldRule["fill"] = (record) =>
  typeof record.authMethod === "string" && record.authMethod !== "" ? [record.authMethod] : [];

const projectRecordRules: Record<string, FieldRule> = {
  type: { fill: constant("secret-manager") },
  secretSharing: { fill: constant(true) },
  showSnapshotsLegacy: { fill: constant(false) },
  // 2024 servers have no delete protection for projects either.
  hasDeleteProtection: { fill: constant(false), feature: "deleteProtection" },
  // ...nor descriptions: they drop one sent on create or update (and refuse an update of nothing else).
  description: { fill: constant(null), feature: "projectDescription" },
};
const projectRules: Record<string, FieldRule> = {
  ...projectRecordRules,
  // Answers to PATCH and DELETE leave out the legacy id and the environments.
  _id: { fill: (record) => record.id },
  environments: { fill: constant([]) },
};

/**
 * What older Infisical servers leave out of each record, and what stands in for it. Facts from
 * responses recorded from real servers (October 2024 and mid-2026): see the sample READMEs.
 */
const rules: [z.ZodType, Record<string, FieldRule>][] = [
  [IdentitySchema, { hasDeleteProtection: { fill: constant(false), feature: "deleteProtection" } }],
  [
    CreatedIdentitySchema,
    {
      hasDeleteProtection: { fill: constant(false), feature: "deleteProtection" },
      authMethods: { fill: authMethodsFromSingle, feature: "multipleAuthMethods" },
    },
  ],
  [
    IdentitySummarySchema,
    {
      hasDeleteProtection: { fill: constant(false), feature: "deleteProtection" },
      authMethods: { fill: authMethodsFromSingle, feature: "multipleAuthMethods" },
    },
  ],
  [OrgListedIdentitySchema, { authMethods: { fill: authMethodsFromSingle, feature: "multipleAuthMethods" } }],
  [IdentityTokenAuthSchema, { accessTokenPeriod: { fill: constant(0) } }],
  // 2024 servers have no periodic tokens and no lockout after failed client-secret logins.
  [
    IdentityUniversalAuthSchema,
    {
      accessTokenPeriod: { fill: constant(0) },
      lockoutEnabled: { fill: constant(false) },
      lockoutThreshold: { fill: constant(3) },
      lockoutDurationSeconds: { fill: constant(300) },
      lockoutCounterResetSeconds: { fill: constant(30) },
    },
  ],
  // 2024 servers have no sub-organisations either.
  [
    AccessTokenRecordSchema,
    {
      accessTokenPeriod: { fill: constant(0) },
      authMethod: { fill: constant("token-auth") },
      subOrganizationId: { fill: constant(null) },
    },
  ],
  // 2024 servers have no review modes (the API server is always asked) and leave caCert out on DELETE.
  [
    IdentityKubernetesAuthSchema,
    {
      tokenReviewMode: { fill: constant("api") },
      caCert: { fill: constant("") },
      // Servers send the stored reviewer JWT back on every read; the browser learns only that one is set.
      tokenReviewerJwt: { fill: constant(null), present: withheld },
    },
  ],
  [RevokedKubernetesAuthSchema, { tokenReviewMode: { fill: constant("api") } }],
  [ProjectSchema, projectRules],
  [ProjectRecordSchema, projectRecordRules],
  [CreatedProjectSchema, projectRules],
  // Usernames of 2024 servers are the e-mail address, and the record leaves them out.
  [ProjectMemberUserSchema, { username: { fill: (record) => record.email ?? record.id } }],
  // 2024 servers name the one auth method of an identity in a project's memberships.
  [ProjectMemberIdentitySchema, { authMethods: { fill: authMethodsFromSingle, feature: "multipleAuthMethods" } }],
  // A value a server sends is one the caller may see; creates of current servers omit the flag.
  [SecretSchema, { secretValueHidden: { fill: constant(false) } }],
  // ...and 2024 servers send no such flag in lists and reads either.
  [SecretDetailSchema, { secretValueHidden: { fill: constant(false) } }],
  [ListedSecretSchema, { secretValueHidden: { fill: constant(false) } }],
  [SecretReadSchema, { secretValueHidden: { fill: constant(false) } }],
  // ...nor on the secrets a folder's imports provide.
  [ImportedSecretSchema, { secretValueHidden: { fill: constant(false) } }],
  // ...nor on a secret's versions.
  [SecretVersionSchema, { secretValueHidden: { fill: constant(false) } }],
  // Role lists omit the rules of each role; the role's own page reads them.
  [ProjectRoleSchema, { permissions: { fill: constant([]) } }],
  // 2024 stream records: no provider (an HTTP endpoint), one request per event, the URL at the top
  // and, on a read, the header values in clear, which the browser never gets.
  [
    AuditLogStreamSchema,
    {
      orgId: { fill: constant("") },
      streamMode: { fill: constant("single") },
      filters: { fill: constant(null) },
      provider: { fill: constant("custom") },
      credentials: { fill: credentialsOfLegacy },
      headers: { fill: constant(undefined), present: maskHeaderValues },
    },
  ],
  [LegacyAuditLogStreamSchema, { headers: { fill: constant(undefined), present: maskHeaderValues } }],
];

export const recordRules: RecordRules = new Map(rules);
