import { randomUUID } from "node:crypto";
import {
  type CreateIntegrationAuthBodySchema,
  type CreateIntegrationBodySchema,
  INTEGRATION_NOT_SYNCED_MESSAGE,
  type Integration,
  type IntegrationAuth,
  integrationProviders,
  type UpdateIntegrationAuthBodySchema,
  type UpdateIntegrationBodySchema,
} from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import {
  deleteIntegrationAuthRow,
  deleteIntegrationRow,
  findIntegration,
  findIntegrationAuth,
  type IntegrationWithEnv,
  insertIntegration,
  insertIntegrationAuth,
  listIntegrationAuths,
  listIntegrations,
  updateIntegrationAuthRow,
  updateIntegrationRow,
} from "../data/integrations.ts";
import { findEnvironmentBySlug } from "../data/secret-folders.ts";
import type { Database } from "../db/schema.ts";
import type { IntegrationAuthRow } from "../db/schema-integrations.ts";
import type { Sealer } from "../lib/sealing.ts";
import { nowIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { BadRequestError, NotFoundError, PermissionDeniedError } from "./errors.ts";
import { toIntegration, toIntegrationAuth } from "./integration-views.ts";
import { canReadValue, type ProjectAbility, type ProjectPermissions, rulesAbout } from "./project-permissions.ts";

type CreateAuthInput = z.output<typeof CreateIntegrationAuthBodySchema>;
type UpdateAuthInput = z.output<typeof UpdateIntegrationAuthBodySchema>;
type CreateIntegrationInput = z.output<typeof CreateIntegrationBodySchema>;
type UpdateIntegrationInput = z.output<typeof UpdateIntegrationBodySchema>;

/** The credential fields of an integration auth: sealed together, never returned. */
const credentialFields = ["accessToken", "accessId", "refreshToken", "awsAssumeIamRoleArn"] as const;
type Credentials = Partial<Record<(typeof credentialFields)[number], string>>;

const sealedColumn = (id: string) => `integration_auths:${id}:sealed_credentials`;

export interface IntegrationServiceDeps {
  db: Kysely<Database>;
  projectPermissions: ProjectPermissions;
  sealer: Sealer;
  /** Whether a folder exists at `secretPath` in an environment (the root always does). */
  folderExists: (projectId: string, environmentId: string, secretPath: string) => Promise<boolean>;
}

/** An integration carries secret values out, so setting one up needs `readValue` where it reads. */
function assertCanReadSource(ability: ProjectAbility, environment: string, secretPath: string): void {
  if (!canReadValue(ability, { environment, secretPath })) {
    throw new PermissionDeniedError("You are not allowed to readValue on secrets", rulesAbout(ability, "secrets"));
  }
}

/**
 * Infisical's legacy native integrations, kept as records: provider credentials sealed at rest,
 * integrations with their source and target. Nothing is ever sent to a provider, and every
 * integration says so (`isSynced: false` and a sync message to that effect).
 */
export function createIntegrationService({ db, projectPermissions, sealer, folderExists }: IntegrationServiceDeps) {
  async function requireAuth(id: string): Promise<IntegrationAuthRow> {
    const row = await findIntegrationAuth(db, id);
    if (!row) throw new NotFoundError(`Integration auth with ID '${id}' not found`);
    return row;
  }

  async function requireIntegration(id: string): Promise<IntegrationWithEnv> {
    const row = await findIntegration(db, id);
    if (!row) throw new NotFoundError(`Integration with ID '${id}' not found`);
    return row;
  }

  async function requireEnvironment(projectId: string, slug: string) {
    const env = await findEnvironmentBySlug(db, projectId, slug);
    if (!env) throw new NotFoundError(`Environment with slug '${slug}' in project with ID '${projectId}' not found`);
    return env;
  }

  async function requireFolder(projectId: string, env: { id: string; slug: string }, secretPath: string) {
    if (!(await folderExists(projectId, env.id, secretPath))) {
      throw new NotFoundError(`Folder with path '${secretPath}' in environment with slug '${env.slug}' not found`);
    }
  }

  function sealCredentials(id: string, credentials: Credentials): string | null {
    const present = Object.fromEntries(Object.entries(credentials).filter(([, value]) => value));
    return Object.keys(present).length === 0 ? null : sealer.seal(JSON.stringify(present), sealedColumn(id));
  }

  function openCredentials(row: IntegrationAuthRow): Credentials {
    return row.sealed_credentials
      ? (JSON.parse(sealer.open(row.sealed_credentials, sealedColumn(row.id))) as Credentials)
      : {};
  }

  function assertProvider(integration: string): void {
    if (!(integrationProviders as readonly string[]).includes(integration)) {
      throw new BadRequestError("Invalid integration");
    }
  }

  return {
    async listAuths(actor: Actor, projectId: string): Promise<IntegrationAuth[]> {
      await projectPermissions.assert(actor, projectId, "read", "integrations");
      return (await listIntegrationAuths(db, projectId)).map(toIntegrationAuth);
    },

    async createAuth(actor: Actor, input: CreateAuthInput): Promise<IntegrationAuth> {
      await projectPermissions.assert(actor, input.workspaceId, "create", "integrations");
      assertProvider(input.integration);
      const id = randomUUID();
      const now = nowIso();
      await insertIntegrationAuth(db, {
        id,
        project_id: input.workspaceId,
        integration: input.integration,
        team_id: null,
        url: input.url ?? null,
        namespace: input.namespace ?? null,
        account_id: null,
        metadata: input.integration === "gcp-secret-manager" ? JSON.stringify({ authMethod: "serviceAccount" }) : null,
        sealed_credentials: sealCredentials(id, {
          accessToken: input.accessToken,
          accessId: input.accessId,
          refreshToken: input.refreshToken,
          awsAssumeIamRoleArn: input.awsAssumeIamRoleArn,
        }),
        access_expires_at: null,
        created_at: now,
        updated_at: now,
      });
      return toIntegrationAuth(await requireAuth(id));
    },

    async getAuth(actor: Actor, id: string): Promise<IntegrationAuth> {
      const row = await requireAuth(id);
      await projectPermissions.assert(actor, row.project_id, "read", "integrations");
      return toIntegrationAuth(row);
    },

    async updateAuth(actor: Actor, id: string, input: UpdateAuthInput): Promise<IntegrationAuth> {
      const row = await requireAuth(id);
      await projectPermissions.assert(actor, row.project_id, "edit", "integrations");
      if (input.integration !== undefined) assertProvider(input.integration);
      const credentials = { ...openCredentials(row) };
      // A token (or access id) and an assumed role are alternatives: giving one drops the other.
      if (input.accessToken !== undefined || input.accessId !== undefined) delete credentials.awsAssumeIamRoleArn;
      if (input.awsAssumeIamRoleArn !== undefined) {
        delete credentials.accessToken;
        delete credentials.accessId;
      }
      for (const field of credentialFields) if (input[field] !== undefined) credentials[field] = input[field];
      await updateIntegrationAuthRow(db, id, {
        ...(input.integration !== undefined && { integration: input.integration }),
        ...(input.url !== undefined && { url: input.url }),
        ...(input.namespace !== undefined && { namespace: input.namespace }),
        sealed_credentials: sealCredentials(id, credentials),
        updated_at: nowIso(),
      });
      return toIntegrationAuth(await requireAuth(id));
    },

    async deleteAuth(actor: Actor, id: string): Promise<IntegrationAuth> {
      const row = await requireAuth(id);
      await projectPermissions.assert(actor, row.project_id, "delete", "integrations");
      await deleteIntegrationAuthRow(db, id);
      return toIntegrationAuth(row);
    },

    async list(actor: Actor, projectId: string): Promise<Integration[]> {
      await projectPermissions.assert(actor, projectId, "read", "integrations");
      return (await listIntegrations(db, projectId)).map(toIntegration);
    },

    async get(actor: Actor, id: string): Promise<Integration> {
      const row = await requireIntegration(id);
      await projectPermissions.assert(actor, row.project_id, "read", "integrations");
      return toIntegration(row);
    },

    async create(actor: Actor, input: CreateIntegrationInput): Promise<Integration> {
      const auth = await requireAuth(input.integrationAuthId);
      const ability = await projectPermissions.assert(actor, auth.project_id, "create", "integrations");
      assertCanReadSource(ability, input.sourceEnvironment, input.secretPath);
      const env = await requireEnvironment(auth.project_id, input.sourceEnvironment);
      await requireFolder(auth.project_id, env, input.secretPath);
      const id = randomUUID();
      const now = nowIso();
      await insertIntegration(db, {
        id,
        project_id: auth.project_id,
        integration_auth_id: auth.id,
        env_id: env.id,
        secret_path: input.secretPath,
        integration: auth.integration,
        is_active: input.isActive ? 1 : 0,
        url: input.url ?? null,
        app: input.app ?? null,
        app_id: input.appId ?? null,
        target_environment: input.targetEnvironment ?? null,
        target_environment_id: input.targetEnvironmentId ?? null,
        target_service: input.targetService ?? null,
        target_service_id: input.targetServiceId ?? null,
        owner: input.owner ?? null,
        path: input.path ?? null,
        region: input.region ?? null,
        scope: input.scope ?? null,
        metadata: JSON.stringify(input.metadata),
        last_used: null,
        is_synced: 0,
        sync_message: INTEGRATION_NOT_SYNCED_MESSAGE,
        last_sync_job_id: null,
        created_at: now,
        updated_at: now,
      });
      return toIntegration(await requireIntegration(id));
    },

    async update(actor: Actor, id: string, input: UpdateIntegrationInput): Promise<Integration> {
      const row = await requireIntegration(id);
      const ability = await projectPermissions.assert(actor, row.project_id, "edit", "integrations");
      let envId = row.env_id;
      if (input.environment !== undefined || input.secretPath !== undefined) {
        const slug = input.environment ?? row.env_slug;
        const secretPath = input.secretPath ?? row.secret_path;
        assertCanReadSource(ability, slug, secretPath);
        const env = await requireEnvironment(row.project_id, slug);
        await requireFolder(row.project_id, env, secretPath);
        envId = env.id;
      }
      const metadata = input.metadata ? { ...JSON.parse(row.metadata), ...input.metadata } : undefined;
      await updateIntegrationRow(db, id, {
        env_id: envId,
        ...(input.secretPath !== undefined && { secret_path: input.secretPath }),
        ...(input.isActive !== undefined && { is_active: input.isActive ? 1 : 0 }),
        ...(input.app !== undefined && { app: input.app }),
        ...(input.appId !== undefined && { app_id: input.appId }),
        ...(input.targetEnvironment !== undefined && { target_environment: input.targetEnvironment }),
        ...(input.owner !== undefined && { owner: input.owner }),
        ...(input.path !== undefined && { path: input.path }),
        ...(input.region !== undefined && { region: input.region }),
        ...(metadata && { metadata: JSON.stringify(metadata) }),
        // Still nothing synced: the record keeps saying so after every change.
        is_synced: 0,
        sync_message: INTEGRATION_NOT_SYNCED_MESSAGE,
        updated_at: nowIso(),
      });
      return toIntegration(await requireIntegration(id));
    },

    async delete(actor: Actor, id: string): Promise<Integration> {
      const row = await requireIntegration(id);
      await projectPermissions.assert(actor, row.project_id, "delete", "integrations");
      await deleteIntegrationRow(db, id);
      return toIntegration(row);
    },
  };
}

export type IntegrationService = ReturnType<typeof createIntegrationService>;
