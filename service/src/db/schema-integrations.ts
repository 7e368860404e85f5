import type { ColumnType, Generated, Insertable, Selectable } from "kysely";
import type { Flag, Timestamp } from "./schema.ts";

type NullableTimestamp = ColumnType<Date | string | null, string | null | undefined, string | null>;

/** A folder's import of another environment's folder, in position order (1..n per folder). */
export interface SecretImportTable {
  id: string;
  folder_id: string;
  import_env_id: string;
  import_path: string;
  position: number;
  version: Generated<number>;
  is_replication: Generated<Flag>;
  is_replication_success: Flag | null;
  replication_status: string | null;
  last_replicated: NullableTimestamp;
  is_reserved: Generated<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A provider's credentials for a project; `sealed_credentials` never holds plain text. */
export interface IntegrationAuthTable {
  id: string;
  project_id: string;
  integration: string;
  team_id: string | null;
  url: string | null;
  namespace: string | null;
  account_id: string | null;
  /** JSON object, or null. */
  metadata: string | null;
  sealed_credentials: string | null;
  access_expires_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Which environment and path an integration carries to which provider target. */
export interface IntegrationTable {
  id: string;
  project_id: string;
  integration_auth_id: string;
  env_id: string;
  secret_path: string;
  integration: string;
  is_active: Flag;
  url: string | null;
  app: string | null;
  app_id: string | null;
  target_environment: string | null;
  target_environment_id: string | null;
  target_service: string | null;
  target_service_id: string | null;
  owner: string | null;
  path: string | null;
  region: string | null;
  scope: string | null;
  /** JSON object. */
  metadata: string;
  last_used: NullableTimestamp;
  is_synced: Flag | null;
  sync_message: string | null;
  last_sync_job_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type IntegrationAuthRow = Selectable<IntegrationAuthTable>;
export type NewIntegrationAuth = Insertable<IntegrationAuthTable>;
export type IntegrationRow = Selectable<IntegrationTable>;
export type NewIntegration = Insertable<IntegrationTable>;
export type SecretImportRow = Selectable<SecretImportTable>;
export type NewSecretImport = Insertable<SecretImportTable>;
