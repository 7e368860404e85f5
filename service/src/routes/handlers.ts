import type { AnyEndpoint } from "@keyhold/contract";
import { type AuthMethodName, authMethodNames } from "../data/auth-methods.ts";
import type { AuditLogReader } from "../audit/read-service.ts";
import type { RetentionSettings } from "../audit/retention-settings.ts";
import type { AccessTokenService } from "../domain/access-tokens.ts";
import type { AuditLogStreamService } from "../domain/audit-log-stream-service.ts";
import type { AwsAuthService } from "../domain/aws-auth-service.ts";
import type { AuthMethodService, LifetimeInput } from "../domain/auth-method-service.ts";
import type { IdentityPrivilegeService } from "../domain/identity-privilege-service.ts";
import type { IdentityService } from "../domain/identity-service.ts";
import type { IntegrationService } from "../domain/integration-service.ts";
import type { SecretImportService } from "../domain/secret-import-service.ts";
import type { KubernetesAuthService } from "../domain/kubernetes-auth-service.ts";
import type { MembershipService } from "../domain/membership-service.ts";
import type { OidcAuthService } from "../domain/oidc-auth-service.ts";
import type { EnvironmentService } from "../domain/environment-service.ts";
import type { ProjectPermissions } from "../domain/project-permissions.ts";
import type { ProjectRoleService } from "../domain/project-role-service.ts";
import type { ProjectService } from "../domain/project-service.ts";
import type { SecretCore } from "../domain/secret-core.ts";
import { permissionsView } from "../domain/project-permissions-view.ts";
import type { TokenAuthService } from "../domain/token-auth-service.ts";
import type { UniversalAuthService } from "../domain/universal-auth-service.ts";
import { type AuditChain, verifyHandler } from "./audit-verify-handler.ts";
import { auditLogHandlers } from "./audit-log-handlers.ts";
import { auditStreamHandlers } from "./audit-stream-handlers.ts";
import type { Handler, HandlerMap } from "./handler-types.ts";
import { integrationHandlers } from "./integration-handlers.ts";
import { secretCoreHandlers } from "./secret-handlers.ts";
import { secretImportHandlers } from "./secret-import-handlers.ts";
import { secretSnapshotHandlers } from "./secret-snapshot-handlers.ts";

export interface Services {
  identities: IdentityService;
  tokenAuth: TokenAuthService;
  authMethods: AuthMethodService;
  universalAuth: UniversalAuthService;
  kubernetesAuth: KubernetesAuthService;
  oidcAuth: OidcAuthService;
  awsAuth: AwsAuthService;
  accessTokens: AccessTokenService;
  projectPermissions: ProjectPermissions;
  privileges: IdentityPrivilegeService;
  memberships: MembershipService;
  projects: ProjectService;
  environments: EnvironmentService;
  projectRoles: ProjectRoleService;
  integrations: IntegrationService;
  secretImports: SecretImportService;
  secretCore: SecretCore;
  auditLogs: AuditLogReader;
  auditRetention: RetentionSettings;
  auditStreams: AuditLogStreamService;
  auditChain: AuditChain;
}

type Identified = Handler<AnyEndpoint>;

/** The four configuration handlers of every auth method, from its spec: one mechanism, five methods. */
function authMethodHandlers(authMethods: AuthMethodService) {
  const handlers: Record<string, Identified> = {};
  for (const method of authMethodNames as readonly AuthMethodName[]) {
    const { key, envelope } = authMethods.specs[method];
    const wrap = (record: Record<string, unknown>) => ({ [envelope]: record });
    handlers[`${key}.attach`] = async ({ actor, params, body }) =>
      wrap(await authMethods.attach(actor, method, params.identityId, body as LifetimeInput));
    handlers[`${key}.get`] = async ({ actor, params }) => wrap(await authMethods.get(actor, method, params.identityId));
    handlers[`${key}.update`] = async ({ actor, params, body }) =>
      wrap(await authMethods.update(actor, method, params.identityId, body as LifetimeInput));
    handlers[`${key}.revoke`] = async ({ actor, params }) =>
      wrap(await authMethods.revoke(actor, method, params.identityId));
  }
  return handlers as Pick<
    HandlerMap,
    `${"tokenAuth" | "universalAuth" | "kubernetesAuth" | "oidcAuth" | "awsAuth"}.${"attach" | "get" | "update" | "revoke"}`
  >;
}

/** Routes stay thin: each maps the parsed request onto a domain call and wraps the envelope. */
export function buildHandlers({
  identities,
  tokenAuth,
  authMethods,
  universalAuth,
  kubernetesAuth,
  oidcAuth,
  awsAuth,
  accessTokens,
  projectPermissions,
  privileges,
  memberships,
  projects,
  environments,
  projectRoles,
  integrations,
  secretImports,
  secretCore,
  auditLogs,
  auditRetention,
  auditStreams,
  auditChain,
}: Services): HandlerMap {
  return {
    ...authMethodHandlers(authMethods),
    ...integrationHandlers(integrations),
    ...secretImportHandlers(secretImports),
    ...secretCoreHandlers(secretCore),
    ...secretSnapshotHandlers(secretCore.snapshots),
    ...auditLogHandlers(auditLogs, auditRetention),
    ...auditStreamHandlers(auditStreams),
    "auditLogs.verify": verifyHandler(auditChain),
    "identities.list": async ({ actor, query }) => identities.list(actor, query.orgId),
    "identities.search": async ({ actor, body }) => identities.search(actor, body),
    "identities.listOrgMemberships": async ({ actor, params, query }) =>
      identities.listOrgMemberships(actor, params.orgId, query),
    "identities.listProjectMemberships": async ({ actor, params }) =>
      identities.listProjectMemberships(actor, params.identityId),
    "identities.create": async ({ actor, body }) => ({ identity: await identities.create(actor, body) }),
    "identities.get": async ({ actor, params }) => ({ identity: await identities.get(actor, params.identityId) }),
    "identities.update": async ({ actor, params, body }) => ({
      identity: await identities.update(actor, params.identityId, body),
    }),
    "identities.delete": async ({ actor, params }) => ({
      identity: await identities.delete(actor, params.identityId),
    }),

    "tokenAuth.createToken": async ({ actor, params, body }) =>
      tokenAuth.createToken(actor, params.identityId, body.name),
    "tokenAuth.listTokens": async ({ actor, params, query }) => ({
      tokens: await tokenAuth.listTokens(actor, params.identityId, query),
    }),
    "tokenAuth.updateToken": async ({ actor, params, body }) => ({
      token: await tokenAuth.updateToken(actor, params.tokenId, body.name),
    }),
    "tokenAuth.revokeToken": async ({ actor, params }) => tokenAuth.revokeToken(actor, params.tokenId),

    "universalAuth.createClientSecret": async ({ actor, params, body }) =>
      universalAuth.createClientSecret(actor, params.identityId, body),
    "universalAuth.listClientSecrets": async ({ actor, params }) => ({
      clientSecretData: await universalAuth.listClientSecrets(actor, params.identityId),
    }),
    "universalAuth.getClientSecret": async ({ actor, params }) => ({
      clientSecretData: await universalAuth.getClientSecret(actor, params.identityId, params.clientSecretId),
    }),
    "universalAuth.revokeClientSecret": async ({ actor, params }) => ({
      clientSecretData: await universalAuth.revokeClientSecret(actor, params.identityId, params.clientSecretId),
    }),
    "universalAuth.clearLockouts": async ({ actor, params }) => universalAuth.clearLockouts(actor, params.identityId),
    "universalAuth.login": async ({ body, callerIp }) =>
      universalAuth.login(body.clientId, body.clientSecret, callerIp),

    "kubernetesAuth.login": async ({ body }) => kubernetesAuth.login(body.identityId, body.jwt),
    "oidcAuth.login": async ({ body }) => oidcAuth.login(body.identityId, body.jwt),
    "awsAuth.login": async ({ body }) => awsAuth.login(body),
    "kubernetesAuth.dryRunLogin": async ({ actor, params, body }) => ({
      dryRun: await kubernetesAuth.dryRun(actor, params.identityId, body),
    }),
    "oidcAuth.dryRunLogin": async ({ actor, params, body }) => ({
      dryRun: await oidcAuth.dryRun(actor, params.identityId, body),
    }),
    "awsAuth.dryRunLogin": async ({ actor, params, body }) => ({
      dryRun: await awsAuth.dryRun(actor, params.identityId, body),
    }),

    "accessTokens.renew": async ({ body }) => accessTokens.renew(body.accessToken),
    "accessTokens.revoke": async ({ body }) => {
      await accessTokens.revoke(body.accessToken);
      return { message: "Successfully revoked access token" };
    },

    "identityPrivileges.createPermanentV1": async ({ actor, body }) => ({
      privilege: await privileges.createV1(actor, body),
    }),
    "identityPrivileges.createTemporaryV1": async ({ actor, body }) => ({
      privilege: await privileges.createV1(actor, body),
    }),
    "identityPrivileges.updateV1": async ({ actor, body }) => ({ privilege: await privileges.updateV1(actor, body) }),
    "identityPrivileges.deleteV1": async ({ actor, body }) => ({ privilege: await privileges.deleteV1(actor, body) }),
    "identityPrivileges.listV1": async ({ actor, query }) => ({
      privileges: await privileges.listV1(actor, query.identityId, query.projectSlug),
    }),
    "identityPrivileges.getBySlugV1": async ({ actor, params, query }) => ({
      privilege: await privileges.getBySlugV1(actor, params.privilegeSlug, query.identityId, query.projectSlug),
    }),
    "identityPrivileges.create": async ({ actor, body }) => ({ privilege: await privileges.create(actor, body) }),
    "identityPrivileges.update": async ({ actor, params, body }) => ({
      privilege: await privileges.update(actor, params.id, body),
    }),
    "identityPrivileges.get": async ({ actor, params }) => ({ privilege: await privileges.get(actor, params.id) }),
    "identityPrivileges.delete": async ({ actor, params }) => ({
      privilege: await privileges.delete(actor, params.id),
    }),
    "identityPrivileges.list": async ({ actor, query }) => ({
      privileges: await privileges.list(actor, query.identityId, query.projectId),
    }),
    "identityPrivileges.getBySlug": async ({ actor, params, query }) => ({
      privilege: await privileges.getBySlug(actor, params.privilegeSlug, query.identityId, query.projectSlug),
    }),
    "projects.getPermissions": async ({ actor, params }) => ({
      data: permissionsView(await projectPermissions.accessFor(actor, params.workspaceId)),
    }),
    "projects.create": async ({ actor, body }) => ({ project: await projects.create(actor, body) }),
    "projects.list": async ({ actor, query }) => ({ workspaces: await projects.list(actor, query.type) }),
    "projects.get": async ({ actor, params }) => ({ workspace: await projects.get(actor, params.workspaceId) }),
    "projects.update": async ({ actor, params, body }) => ({
      workspace: await projects.update(actor, params.workspaceId, body),
    }),
    "projects.delete": async ({ actor, params }) => ({ workspace: await projects.delete(actor, params.workspaceId) }),
    "environments.create": async ({ actor, params, body }) => ({
      message: "Successfully created new environment",
      workspace: params.workspaceId,
      environment: await environments.create(actor, params.workspaceId, body),
    }),
    "environments.update": async ({ actor, params, body }) => ({
      message: "Successfully updated environment",
      workspace: params.workspaceId,
      environment: await environments.update(actor, params.workspaceId, params.id, body),
    }),
    "environments.delete": async ({ actor, params }) => ({
      message: "Successfully deleted environment",
      workspace: params.workspaceId,
      environment: await environments.delete(actor, params.workspaceId, params.id),
    }),
    "projects.listMemberships": async ({ actor, params }) => ({
      memberships: await memberships.listUsers(actor, params.workspaceId),
    }),
    "projectUsers.invite": async ({ actor, params, body }) => ({
      memberships: await memberships.inviteUsers(actor, params.projectId, body),
    }),
    "identityMemberships.add": async ({ actor, params, body }) => ({
      identityMembership: await memberships.addIdentity(actor, params.projectId, params.identityId, body),
    }),
    "identityMemberships.list": async ({ actor, params, query }) =>
      memberships.listIdentities(actor, params.projectId, query),
    "identityMemberships.get": async ({ actor, params }) => ({
      identityMembership: await memberships.getIdentity(actor, params.projectId, params.identityId),
    }),
    "identityMemberships.update": async ({ actor, params, body }) => ({
      roles: await memberships.updateIdentity(actor, params.projectId, params.identityId, body.roles),
    }),
    "identityMemberships.remove": async ({ actor, params }) => ({
      identityMembership: await memberships.removeIdentity(actor, params.projectId, params.identityId),
    }),
    "projectRoles.create": async ({ actor, params, body }) => ({
      role: await projectRoles.create(actor, params.projectId, body),
    }),
    "projectRoles.list": async ({ actor, params }) => ({ roles: await projectRoles.list(actor, params.projectId) }),
    "projectRoles.getBySlug": async ({ actor, params }) => ({
      role: await projectRoles.getBySlug(actor, params.projectId, params.roleSlug),
    }),
    "projectRoles.update": async ({ actor, params, body }) => ({
      role: await projectRoles.update(actor, params.projectId, params.roleId, body),
    }),
    "projectRoles.delete": async ({ actor, params }) => ({
      role: await projectRoles.delete(actor, params.projectId, params.roleId),
    }),
  };
}
