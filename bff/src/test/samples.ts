import { randomUUID } from "node:crypto";
import {
  type Endpoint,
  type EndpointId,
  type Endpoints,
  endpointList,
  endpoints,
  type IdentityMembership,
} from "@keyhold/contract";
import type { z } from "zod";
import { loadRecordings, sampleDir } from "@keyhold/fixtures";

export const ORG_ID = "6f1c1a52-8d1e-4c4f-9a55-0f4b7b2b8a10";
export const IDENTITY_ID = "0b7a3f9e-2c4d-4e6f-8a1b-3c5d7e9f1a2b";

/** A JWT-shaped token carrying an identityId claim; the fake upstream does not check signatures. */
export function fakeAccessToken(identityId: string = IDENTITY_ID): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const claims = { identityId, identityAccessTokenId: randomUUID(), authTokenType: "identityAccessToken" };
  return `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}.${Buffer.from(randomUUID()).toString("base64url")}`;
}

export function membership(identityId: string = IDENTITY_ID, name = "admin"): IdentityMembership {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    role: "admin",
    orgId: ORG_ID,
    createdAt: now,
    updatedAt: now,
    identityId,
    identity: { name, id: identityId, hasDeleteProtection: false, authMethods: ["token-auth"] },
  };
}

/** A valid value for every path parameter name the contract uses. */
const paramSamples: Record<string, string> = {
  identityId: IDENTITY_ID,
  orgId: ORG_ID,
  id: "3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a",
  secretImportId: "7e6d5c4b-3a29-4817-8f6e-5d4c3b2a1908",
  workspaceId: "proj-sample",
  projectId: "proj-sample",
  secretName: "DATABASE_URL",
  tokenId: "5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d",
  clientSecretId: "9c8b7a6f-5e4d-4c3b-9a2f-1e0d9c8b7a6f",
  roleId: "2e4f6a8c-0b1d-4f3e-9a5c-7e9b1d3f5a7c",
  roleSlug: "reader",
  privilegeSlug: "read-dev-secrets",
  secretId: "8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d",
  folderId: "6c5d4e3f-2a1b-4c9d-8e7f-6a5b4c3d2e1f",
  tagId: "4e3f2a1b-0c9d-4e8f-9a7b-6c5d4e3f2a1b",
  integrationId: "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b",
  integrationAuthId: "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d",
  secretSnapshotId: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  commitId: "5f6e7d8c-9b0a-4c1d-8e2f-3a4b5c6d7e8f",
  workspaceSlug: "proj",
  provider: "custom",
  streamId: "7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d",
};

export function sampleParams(endpoint: Endpoint): Record<string, string> {
  const names = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? "");
  return Object.fromEntries(names.map((name) => [name, paramSamples[name] ?? "missing-sample"]));
}

export const sampleQueries: Partial<{ [Id in EndpointId]: z.input<Endpoints[Id]["query"]> }> = {
  "identities.list": { orgId: ORG_ID },
  "auditLogs.listOrg": { offset: "0", limit: "20" },
  "auditLogs.listProject": { offset: "0", limit: "20" },
  "identities.listOrgMemberships": { offset: 0, limit: 100, orderBy: "name", orderDirection: "asc" },
  "tokenAuth.listTokens": { offset: "0", limit: "20" },
  "identityMemberships.list": { offset: "0", limit: "100", orderBy: "name", orderDirection: "asc" },
  "identityPrivileges.listV1": { identityId: IDENTITY_ID, projectSlug: "proj" },
  "identityPrivileges.getBySlugV1": { identityId: IDENTITY_ID, projectSlug: "proj" },
  "identityPrivileges.list": { identityId: IDENTITY_ID, projectId: "proj-sample" },
  "identityPrivileges.getBySlug": { identityId: IDENTITY_ID, projectSlug: "proj" },
  "secrets.list": { workspaceId: "proj-sample", environment: "dev", secretPath: "/" },
  "secrets.listV4": { projectId: "proj-sample", environment: "dev", secretPath: "/" },
  "secrets.get": { workspaceId: "proj-sample", environment: "dev", secretPath: "/" },
  "secrets.getV4": { projectId: "proj-sample", environment: "dev", secretPath: "/" },
  "secretVersions.list": { offset: 0, limit: 10 },
  "folders.list": { workspaceId: "proj-sample", environment: "dev", path: "/" },
  "secretImports.list": { workspaceId: "proj-sample", environment: "dev", path: "/" },
  "secretImports.listSecrets": { workspaceId: "proj-sample", environment: "dev", path: "/" },
  "integrations.delete": { shouldDeleteIntegrationSecrets: "false" },
  "secretSnapshots.list": { environment: "dev", path: "/", offset: "0", limit: "20" },
  "secretSnapshots.listV2": { environment: "dev", path: "/", offset: "0", limit: "20" },
  "secretSnapshots.count": { environment: "dev", path: "/" },
  "secretSnapshots.countV2": { environment: "dev", path: "/" },
  "pitCommits.list": {
    projectId: "proj-sample",
    environment: "dev",
    path: "/",
    offset: "0",
    limit: "20",
    sort: "desc",
  },
  "pitCommits.count": { projectId: "proj-sample", environment: "dev", path: "/" },
  "pitCommits.changes": { projectId: "proj-sample" },
  "pitCommits.folderState": { projectId: "proj-sample", folderId: "6c5d4e3f-2a1b-4c9d-8e7f-6a5b4c3d2e1f" },
  "pitCommits.compare": {
    projectId: "proj-sample",
    folderId: "6c5d4e3f-2a1b-4c9d-8e7f-6a5b4c3d2e1f",
    environment: "dev",
    secretPath: "/",
  },
};

const rule = { subject: "secrets", action: ["read"], conditions: { environment: "dev" } };

/** A valid body for every endpoint; the mapped type makes a missing one a compile error. */
export const sampleBodies: { [Id in EndpointId]: z.input<Endpoints[Id]["body"]> } = {
  "identities.list": undefined,
  "identities.create": { name: "ci-runner", organizationId: ORG_ID },
  "identities.search": { search: { name: { $contains: "ci" } } },
  "identities.listOrgMemberships": undefined,
  "identities.listProjectMemberships": undefined,
  "identities.get": undefined,
  "identities.update": { name: "ci-runner-2" },
  "identities.delete": undefined,
  "tokenAuth.attach": {},
  "tokenAuth.get": undefined,
  "tokenAuth.update": { accessTokenTTL: 60 },
  "tokenAuth.revoke": undefined,
  "universalAuth.attach": {},
  "universalAuth.get": undefined,
  "universalAuth.update": { lockoutEnabled: false },
  "universalAuth.revoke": undefined,
  "tokenAuth.createToken": { name: "deploy" },
  "tokenAuth.listTokens": undefined,
  "tokenAuth.updateToken": { name: "deploy-renamed" },
  "tokenAuth.revokeToken": undefined,
  "universalAuth.createClientSecret": { description: "ci pipeline", numUsesLimit: 0, ttl: 0 },
  "universalAuth.listClientSecrets": undefined,
  "universalAuth.getClientSecret": undefined,
  "universalAuth.revokeClientSecret": undefined,
  "universalAuth.login": { clientId: "cc9f833d-d361-4350-bdc7-d5dec39f1155", clientSecret: "sample-client-secret" },
  "accessTokens.renew": { accessToken: "sample-access-token" },
  "accessTokens.revoke": { accessToken: "sample-access-token" },
  "kubernetesAuth.attach": {
    kubernetesHost: "https://k8s.example:6443",
    allowedNamespaces: "",
    allowedNames: "",
    allowedAudience: "",
  },
  "kubernetesAuth.update": { allowedNamespaces: "prod" },
  "kubernetesAuth.get": undefined,
  "kubernetesAuth.revoke": undefined,
  "kubernetesAuth.login": { identityId: "cc9f833d-d361-4350-bdc7-d5dec39f1155", jwt: "sample-service-account-token" },
  "kubernetesAuth.dryRunLogin": { settings: { allowedNamespaces: "prod" }, jwt: "sample-service-account-token" },
  "oidcAuth.attach": {
    oidcDiscoveryUrl: "https://issuer.example/.well-known/openid-configuration",
    boundIssuer: "https://issuer.example",
  },
  "oidcAuth.update": { boundIssuer: "https://issuer.example" },
  "oidcAuth.get": undefined,
  "oidcAuth.revoke": undefined,
  "oidcAuth.login": { identityId: "cc9f833d-d361-4350-bdc7-d5dec39f1155", jwt: "sample-identity-token" },
  "oidcAuth.dryRunLogin": { settings: { boundSubject: "repo:acme/*" }, jwt: "sample-identity-token" },
  "awsAuth.attach": {},
  "awsAuth.get": undefined,
  "awsAuth.update": { allowedAccountIds: "123456789012" },
  "awsAuth.revoke": undefined,
  "awsAuth.login": {
    identityId: "cc9f833d-d361-4350-bdc7-d5dec39f1155",
    iamHttpRequestMethod: "POST",
    iamRequestBody: "QWN0aW9uPUdldENhbGxlcklkZW50aXR5JlZlcnNpb249MjAxMS0wNi0xNQ==",
    iamRequestHeaders: "e30=",
  },
  "awsAuth.dryRunLogin": {
    settings: { allowedAccountIds: "123456789012" },
    iamHttpRequestMethod: "POST",
    iamRequestBody: "QWN0aW9uPUdldENhbGxlcklkZW50aXR5JlZlcnNpb249MjAxMS0wNi0xNQ==",
    iamRequestHeaders: "e30=",
  },
  "identityPrivileges.createPermanentV1": {
    identityId: IDENTITY_ID,
    projectSlug: "proj",
    privilegePermission: { actions: ["read"], subject: "secrets", conditions: { environment: "dev" } },
  },
  "identityPrivileges.deleteV1": { privilegeSlug: "extra", identityId: IDENTITY_ID, projectSlug: "proj" },
  "identityPrivileges.create": { identityId: IDENTITY_ID, projectId: "proj-sample", permissions: [rule] },
  "identityPrivileges.update": { slug: "extra", type: { isTemporary: false } },
  "identityPrivileges.get": undefined,
  "identityPrivileges.createTemporaryV1": {
    identityId: IDENTITY_ID,
    projectSlug: "proj",
    privilegePermission: { actions: ["read"], subject: "secrets", conditions: { environment: "prod" } },
    temporaryMode: "relative",
    temporaryRange: "1h",
    temporaryAccessStartTime: "2026-01-01T00:00:00.000Z",
  },
  "identityPrivileges.updateV1": {
    privilegeSlug: "extra",
    identityId: IDENTITY_ID,
    projectSlug: "proj",
    privilegeDetails: { slug: "extra-2" },
  },
  "identityPrivileges.listV1": undefined,
  "identityPrivileges.getBySlugV1": undefined,
  "identityPrivileges.delete": undefined,
  "identityPrivileges.list": undefined,
  "identityPrivileges.getBySlug": undefined,
  "projects.getPermissions": undefined,
  "projects.create": { projectName: "Payments" },
  "projects.get": undefined,
  "projects.list": undefined,
  "projects.update": { name: "Payments (EU)" },
  "projects.delete": undefined,
  "environments.create": { name: "QA", slug: "qa" },
  "environments.update": { name: "Quality" },
  "environments.delete": undefined,
  "projects.listIntegrations": undefined,
  "projects.listMemberships": undefined,
  "projectUsers.invite": { emails: ["dev@example.com"], roleSlugs: ["member"] },
  "identityMemberships.add": { roles: [{ role: "viewer" }] },
  "identityMemberships.list": undefined,
  "identityMemberships.get": undefined,
  "identityMemberships.update": {
    roles: [
      { role: "member", isTemporary: false },
      {
        role: "viewer",
        isTemporary: true,
        temporaryMode: "relative",
        temporaryRange: "1h",
        temporaryAccessStartTime: "2026-01-01T00:00:00.000Z",
      },
    ],
  },
  "identityMemberships.remove": undefined,
  "universalAuth.clearLockouts": undefined,
  "projectRoles.create": { slug: "reader", name: "Reader", permissions: [rule] },
  "projectRoles.list": undefined,
  "projectRoles.getBySlug": undefined,
  "projectRoles.update": { name: "Reader (dev)", permissions: [rule] },
  "projectRoles.delete": undefined,
  "secrets.list": undefined,
  "secrets.listV4": undefined,
  "secrets.get": undefined,
  "secrets.getV4": undefined,
  "secrets.create": { workspaceId: "proj-sample", environment: "dev", secretValue: "s3cr3t" },
  "secrets.createV4": { projectId: "proj-sample", environment: "dev", secretValue: "s3cr3t" },
  "secrets.update": { workspaceId: "proj-sample", environment: "dev", secretValue: "s3cr3t" },
  "secrets.updateV4": { projectId: "proj-sample", environment: "dev", secretValue: "s3cr3t" },
  "secrets.delete": { workspaceId: "proj-sample", environment: "dev" },
  "secrets.deleteV4": { projectId: "proj-sample", environment: "dev" },
  "secrets.batchCreate": {
    workspaceId: "proj-sample",
    environment: "dev",
    secrets: [{ secretKey: "DATABASE_URL", secretValue: "s3cr3t" }],
  },
  "secrets.batchCreateV4": {
    projectId: "proj-sample",
    environment: "dev",
    secrets: [{ secretKey: "DATABASE_URL", secretValue: "s3cr3t" }],
  },
  "secrets.batchUpdate": {
    workspaceId: "proj-sample",
    environment: "dev",
    mode: "upsert",
    secrets: [{ secretKey: "DATABASE_URL", secretValue: "s3cr3t" }],
  },
  "secrets.batchUpdateV4": {
    projectId: "proj-sample",
    environment: "dev",
    secrets: [{ secretKey: "DATABASE_URL", newSecretName: "PRIMARY_DATABASE_URL" }],
  },
  "secrets.batchDelete": { workspaceId: "proj-sample", environment: "dev", secrets: [{ secretKey: "DATABASE_URL" }] },
  "secrets.batchDeleteV4": { projectId: "proj-sample", environment: "dev", secrets: [{ secretKey: "DATABASE_URL" }] },
  "secretSnapshots.list": undefined,
  "secretSnapshots.listV2": undefined,
  "secretSnapshots.count": undefined,
  "secretSnapshots.countV2": undefined,
  "secretSnapshots.get": undefined,
  "secretSnapshots.rollback": {},
  "pitCommits.list": undefined,
  "pitCommits.count": undefined,
  "pitCommits.changes": undefined,
  "pitCommits.folderState": undefined,
  "pitCommits.compare": undefined,
  "pitCommits.revert": { projectId: "proj-sample" },
  "pitCommits.rollback": {
    projectId: "proj-sample",
    folderId: "6c5d4e3f-2a1b-4c9d-8e7f-6a5b4c3d2e1f",
    environment: "dev",
  },
  "pitBatch.commit": {
    projectId: "proj-sample",
    environment: "dev",
    message: "Rotate the database credentials",
    changes: {
      secrets: {
        create: [{ secretKey: "DATABASE_URL", secretValue: "s3cr3t" }],
        update: [{ secretKey: "API_KEY", newSecretName: "SERVICE_API_KEY" }],
        delete: [{ secretKey: "OLD_TOKEN" }],
      },
    },
  },
  "secrets.getById": undefined,
  "secretVersions.list": undefined,
  "folders.create": { workspaceId: "proj-sample", environment: "dev", name: "app", path: "/" },
  "folders.list": undefined,
  "folders.get": undefined,
  "folders.update": { workspaceId: "proj-sample", environment: "dev", name: "app-2", path: "/" },
  "folders.delete": { workspaceId: "proj-sample", environment: "dev", path: "/" },
  "tags.list": undefined,
  "tags.create": { slug: "backend", color: "#3b82f6" },
  "tags.delete": undefined,
  "secretImports.list": undefined,
  "secretImports.create": {
    workspaceId: "proj-sample",
    environment: "dev",
    path: "/",
    import: { environment: "staging", path: "/" },
  },
  "secretImports.update": { workspaceId: "proj-sample", environment: "dev", path: "/", import: { position: 1 } },
  "secretImports.delete": { workspaceId: "proj-sample", environment: "dev", path: "/" },
  "secretImports.listSecrets": undefined,
  "projects.listIntegrationAuths": undefined,
  "integrationAuths.create": {
    workspaceId: "proj-sample",
    integration: "github",
    accessToken: "sample-provider-token",
  },
  "integrationAuths.get": undefined,
  "integrationAuths.update": { accessToken: "sample-provider-token-2" },
  "integrationAuths.delete": undefined,
  "integrations.create": {
    integrationAuthId: "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d",
    sourceEnvironment: "dev",
    app: "acme/api",
  },
  "integrations.get": undefined,
  "integrations.update": { isActive: false },
  "integrations.delete": undefined,
  "auditLogs.listOrg": undefined,
  "auditLogs.listProject": undefined,
  "auditLogs.verify": undefined,
  "projects.updateAuditLogsRetention": { auditLogsRetentionDays: 30 },
  "projects.updateAuditLogsRetentionLegacy": { auditLogsRetentionDays: 30 },
  "organizations.getAuditLogsRetention": undefined,
  "organizations.updateAuditLogsRetention": { auditLogsRetentionDays: 90 },
  "auditLogStreams.options": undefined,
  "auditLogStreams.list": undefined,
  "auditLogStreams.status": undefined,
  "auditLogStreams.create": {
    credentials: { url: "https://logs.example.com/in", headers: [{ key: "X-Key", value: "k" }] },
  },
  "auditLogStreams.get": undefined,
  "auditLogStreams.update": { credentials: { url: "https://logs.example.com/in", headers: [] } },
  "auditLogStreams.delete": undefined,
  "auditLogStreams.test": undefined,
  "auditLogStreams.createLegacy": { url: "https://logs.example.com/in" },
  "auditLogStreams.getLegacy": undefined,
  "auditLogStreams.updateLegacy": { url: "https://logs.example.com/in" },
  "auditLogStreams.deleteLegacy": undefined,
};

/** The folders of responses recorded from real Infisical servers (`@keyhold/fixtures`). */
export const sampleSets = { 2024: sampleDir(2024), 2026: sampleDir(2026) } as const;

/** The console's calls first, then the paid-plan features (batches among them). */
const recorded2026 = [...loadRecordings(sampleSets[2026]), ...loadRecordings(sampleDir(2026, "more"))];

/** A successful answer a current server gave for each contract endpoint (mid-2026 recordings). */
export function recordedAnswer(id: EndpointId): unknown {
  const endpoint = endpoints[id];
  const found = recorded2026.find((r) => r.status < 300 && endpointAt(r.method, r.path)?.id === endpoint.id);
  if (!found) throw new Error(`no recorded answer for ${id}`);
  return found.body;
}

function templateMatches(template: string, path: string): boolean {
  const pattern = template.replace(/\{\w+\}/g, "[^/]+");
  return new RegExp(`^${pattern}$`).test(path);
}

/**
 * The endpoint a request path is for. `/api/v4/secrets/batch` also fits the template of one
 * secret (`/api/v4/secrets/{secretName}`); as in the routers, the template with fewer parameters wins.
 */
function endpointAt(method: string, path: string) {
  const params = (template: string) => (template.match(/\{/g) ?? []).length;
  return endpointList
    .filter((e) => e.method === method && templateMatches(e.path, path))
    .sort((a, b) => params(a.path) - params(b.path))[0];
}

/** Answers each contract endpoint as a current server did; anything else with an empty object. */
export const answerAsRecorded = (request: { method: string; url: string }) => {
  const endpoint = endpointAt(request.method, request.url.split("?")[0] ?? "");
  return { status: 200, body: endpoint ? recordedAnswer(endpoint.id) : {} };
};
