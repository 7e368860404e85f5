import type { Integration, IntegrationAuth } from "@keyhold/contract";
import type { IntegrationWithEnv } from "../data/integrations.ts";
import type { IntegrationAuthRow } from "../db/schema-integrations.ts";
import { toIso, toIsoOrNull } from "../lib/time.ts";

/** Integration auths and integrations as the wire has them (credentials never leave the service). */
export function toIntegrationAuth(row: IntegrationAuthRow): IntegrationAuth {
  return {
    id: row.id,
    projectId: row.project_id,
    integration: row.integration,
    teamId: row.team_id,
    url: row.url,
    namespace: row.namespace,
    accountId: row.account_id,
    metadata: row.metadata === null ? null : JSON.parse(row.metadata),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export function toIntegration(row: IntegrationWithEnv): Integration {
  return {
    id: row.id,
    isActive: row.is_active === 1,
    url: row.url,
    app: row.app,
    appId: row.app_id,
    targetEnvironment: row.target_environment,
    targetEnvironmentId: row.target_environment_id,
    targetService: row.target_service,
    targetServiceId: row.target_service_id,
    owner: row.owner,
    path: row.path,
    region: row.region,
    scope: row.scope,
    integration: row.integration,
    metadata: JSON.parse(row.metadata),
    integrationAuthId: row.integration_auth_id,
    envId: row.env_id,
    secretPath: row.secret_path,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    lastUsed: toIsoOrNull(row.last_used),
    isSynced: row.is_synced === null ? null : row.is_synced === 1,
    syncMessage: row.sync_message,
    lastSyncJobId: row.last_sync_job_id,
    environment: { id: row.env_id, name: row.env_name, slug: row.env_slug },
  };
}
