import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { AuditEventTable } from "./declarations.ts";
import { pick, projectEvent, urlOrigin } from "./event-helpers.ts";

const NO_VALUE = "a read of project settings, which carry no secret value";

/** The project an integration auth belongs to (integrations name only their auth). */
async function projectOfIntegrationAuth(db: Kysely<Database>, integrationAuthId: string): Promise<string | null> {
  const row = await db
    .selectFrom("integration_auths")
    .select("project_id")
    .where("id", "=", integrationAuthId)
    .executeTakeFirst();
  return row?.project_id ?? null;
}

type RoleAnswer = {
  id: string;
  slug: string;
  name: string;
  description?: string | null | undefined;
  permissions: unknown;
};

/** create-/update-/delete-project-role: a mid-2026 server records the rules as JSON text (2026-06-more/027). */
const roleMetadata = (role: RoleAnswer) => ({
  roleId: role.id,
  slug: role.slug,
  name: role.name,
  description: role.description ?? null,
  permissions: JSON.stringify(role.permissions),
});

type Environment = { id: string; name: string; slug: string; position: number };
const environmentMetadata = (environment: Environment) => ({
  environmentId: environment.id,
  name: environment.name,
  slug: environment.slug,
  position: environment.position,
});

/** Integration auths carry credentials in their bodies: only where they point is recorded. */
const integrationAuthMetadata = (auth: {
  id: string;
  integration: string;
  url: string | null;
  namespace: string | null;
}) => ({
  integrationAuthId: auth.id,
  integration: auth.integration,
  ...(auth.url && { url: urlOrigin(auth.url) }),
  ...(auth.namespace && { namespace: auth.namespace }),
});

type IntegrationAnswer = {
  id: string;
  integrationAuthId: string;
  app?: string | null | undefined;
  secretPath: string;
  isActive: boolean;
  environment: { slug: string };
};
const integrationMetadata = (integration: IntegrationAnswer) => ({
  integrationId: integration.id,
  integrationAuthId: integration.integrationAuthId,
  app: integration.app ?? null,
  environment: integration.environment.slug,
  secretPath: integration.secretPath,
  isActive: integration.isActive,
});

const UPDATE_PROJECT_FIELDS = [
  "name",
  "description",
  "slug",
  "autoCapitalization",
  "hasDeleteProtection",
  "secretSharing",
  "showSnapshotsLegacy",
  "defaultProduct",
  "pitVersionLimit",
] as const;

/** Projects, environments, integrations, memberships, roles, and the audit log's own settings and streams. */
export const projectEvents = {
  "projects.getPermissions": { none: "the caller's own permissions" },
  "projects.list": { none: NO_VALUE },
  "projects.get": { none: NO_VALUE },
  "projects.create": {
    type: "create-project",
    event: ({ body, result }) =>
      projectEvent(result.project.id, {
        name: result.project.name,
        slug: result.project.slug,
        type: result.project.type,
        template: body.template,
        projectName: result.project.name,
        hasDeleteProtection: body.hasDeleteProtection,
        shouldCreateDefaultEnvs: body.shouldCreateDefaultEnvs,
      }),
  },
  // What the update changed: the fields its body gave.
  "projects.update": {
    type: "update-project",
    event: ({ params, body }) => projectEvent(params.workspaceId, pick(body, UPDATE_PROJECT_FIELDS)),
  },
  "projects.delete": {
    type: "delete-project",
    event: ({ result }) =>
      projectEvent(result.workspace.id, { projectId: result.workspace.id, name: result.workspace.name }),
  },
  // A mid-2026 server records a retention change as update-project with the new value (2026-06-more/119).
  "projects.updateAuditLogsRetention": {
    type: "update-project",
    event: ({ result }) =>
      projectEvent(result.project.id, { auditLogsRetentionDays: result.project.auditLogsRetentionDays ?? null }),
  },
  "projects.updateAuditLogsRetentionLegacy": {
    type: "update-project",
    event: ({ result }) =>
      projectEvent(result.workspace.id, { auditLogsRetentionDays: result.workspace.auditLogsRetentionDays ?? null }),
  },

  "environments.create": {
    type: "create-environment",
    event: ({ params, result }) => projectEvent(params.workspaceId, environmentMetadata(result.environment)),
  },
  "environments.update": {
    type: "update-environment",
    event: ({ params, body, result }) =>
      projectEvent(params.workspaceId, { ...environmentMetadata(result.environment), changed: Object.keys(body) }),
  },
  "environments.delete": {
    type: "delete-environment",
    event: ({ params, result }) => projectEvent(params.workspaceId, environmentMetadata(result.environment)),
  },

  "projects.listIntegrations": { none: NO_VALUE },
  "projects.listIntegrationAuths": { none: "integration auths are answered without their credentials" },
  "integrationAuths.get": { none: "integration auths are answered without their credentials" },
  "integrationAuths.create": {
    type: "authorize-integration",
    event: ({ result }) =>
      projectEvent(result.integrationAuth.projectId, integrationAuthMetadata(result.integrationAuth)),
  },
  "integrationAuths.update": {
    type: "update-integration-auth",
    event: ({ result }) =>
      projectEvent(result.integrationAuth.projectId, integrationAuthMetadata(result.integrationAuth)),
  },
  "integrationAuths.delete": {
    type: "unauthorize-integration",
    event: ({ result }) =>
      projectEvent(result.integrationAuth.projectId, integrationAuthMetadata(result.integrationAuth)),
  },
  "integrations.get": { none: NO_VALUE },
  "integrations.create": {
    type: "create-integration",
    event: async ({ db, result }) =>
      projectEvent(
        await projectOfIntegrationAuth(db, result.integration.integrationAuthId),
        integrationMetadata(result.integration),
      ),
  },
  "integrations.update": {
    type: "update-integration",
    event: async ({ db, result }) =>
      projectEvent(
        await projectOfIntegrationAuth(db, result.integration.integrationAuthId),
        integrationMetadata(result.integration),
      ),
  },
  "integrations.delete": {
    type: "delete-integration",
    event: async ({ db, result }) =>
      projectEvent(
        await projectOfIntegrationAuth(db, result.integration.integrationAuthId),
        integrationMetadata(result.integration),
      ),
  },

  "projects.listMemberships": { none: NO_VALUE },
  "identityMemberships.list": { none: NO_VALUE },
  "identityMemberships.get": { none: NO_VALUE },
  "projectUsers.invite": {
    type: "add-project-members",
    event: async ({ db, params, result }) => {
      const userIds = result.memberships.map((m) => m.userId);
      const users =
        userIds.length === 0
          ? []
          : await db.selectFrom("users").select(["id", "email"]).where("id", "in", userIds).execute();
      const emailOf = new Map(users.map((u) => [u.id, u.email ?? ""]));
      return projectEvent(params.projectId, {
        members: result.memberships.map((m) => ({
          email: emailOf.get(m.userId) ?? "",
          userId: m.userId,
          membershipId: m.id,
        })),
      });
    },
  },
  "identityMemberships.add": {
    type: "create-identity-project-membership",
    event: ({ params, body, result }) =>
      projectEvent(params.projectId, {
        identityId: params.identityId,
        membershipId: result.identityMembership.id,
        roles: body.roles ?? [{ role: body.role ?? "no-access" }],
      }),
  },
  "identityMemberships.update": {
    type: "update-identity-project-membership",
    event: ({ params, body }) => projectEvent(params.projectId, { identityId: params.identityId, roles: body.roles }),
  },
  "identityMemberships.remove": {
    type: "delete-identity-project-membership",
    event: ({ params, result }) =>
      projectEvent(params.projectId, { identityId: params.identityId, membershipId: result.identityMembership.id }),
  },

  "projectRoles.list": {
    type: "list-project-roles",
    event: ({ params }) => projectEvent(params.projectId, {}),
  },
  "projectRoles.getBySlug": {
    type: "get-project-role",
    event: ({ params, result }) => projectEvent(params.projectId, { roleId: result.role.id, slug: result.role.slug }),
  },
  "projectRoles.create": {
    type: "create-project-role",
    event: ({ params, result }) => projectEvent(params.projectId, roleMetadata(result.role)),
  },
  "projectRoles.update": {
    type: "update-project-role",
    event: ({ params, result }) => projectEvent(params.projectId, roleMetadata(result.role)),
  },
  "projectRoles.delete": {
    type: "delete-project-role",
    event: ({ params, result }) => projectEvent(params.projectId, roleMetadata(result.role)),
  },
} satisfies Partial<AuditEventTable>;
