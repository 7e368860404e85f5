import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type { AuditChainHeadTable, AuditEventTable, AuditLogStreamTable } from "./schema-audit.ts";
import type { IntegrationAuthTable, IntegrationTable, SecretImportTable } from "./schema-integrations.ts";
import type {
  FolderCommitTable,
  ProjectDataKeyTable,
  SecretFolderTable,
  SecretTable,
  SecretTagLinkTable,
  SecretTagTable,
  SecretVersionTable,
} from "./schema-secrets.ts";

/** Written as ISO 8601 strings; PostgreSQL (timestamptz) reads back Date, SQLite (text) the string. */
export type Timestamp = ColumnType<Date | string, string, string>;
/** 0 or 1 in both dialects, so one set of queries binds the same values everywhere. */
export type Flag = number;

export interface InstanceTable {
  id: string;
  org_id: string;
  admin_identity_id: string;
  created_at: Timestamp;
}

export interface OrganizationTable {
  id: string;
  name: string;
  slug: string;
  /** Days audit events of projects without their own retention are kept. */
  audit_logs_retention_days: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IdentityTable {
  id: string;
  org_id: string;
  name: string;
  has_delete_protection: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IdentityOrgMembershipTable {
  id: string;
  identity_id: string;
  org_id: string;
  role: string;
  role_id: string | null;
  last_login_auth_method: string | null;
  last_login_time: ColumnType<Date | string | null, string | null, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IdentityMetadataTable {
  id: string;
  identity_id: string;
  org_id: string;
  key: string;
  value: string;
  /** Keeps metadata in the order it was given. */
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The configuration of one auth method attached to one identity (every method, one table). */
export interface IdentityAuthMethodTable {
  id: string;
  identity_id: string;
  /** The wire name: token-auth, universal-auth, kubernetes-auth, oidc-auth, aws-auth. */
  method: string;
  access_token_ttl: number;
  access_token_max_ttl: number;
  access_token_num_uses_limit: number;
  access_token_period: number;
  /** JSON array of stored trusted IP records. */
  access_token_trusted_ips: string;
  /** JSON object of the method's own settings, by wire field name. */
  settings: string;
  /** The method's credential fields as one AES-256-GCM sealed JSON object, bound to the row; or null. */
  sealed: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IdentityAccessTokenTable {
  id: string;
  identity_id: string;
  name: string | null;
  auth_method: string;
  access_token_ttl: number;
  access_token_max_ttl: number;
  access_token_num_uses: number;
  access_token_num_uses_limit: number;
  access_token_period: number;
  access_token_last_used_at: ColumnType<Date | string | null, string | null, string | null>;
  access_token_last_renewed_at: ColumnType<Date | string | null, string | null, string | null>;
  is_access_token_revoked: Flag;
  identity_ua_client_secret_id: string | null;
  /** JSON: the claims an OIDC login's claimMetadataMapping carried onto the token; null otherwise. */
  claim_metadata: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A universal-auth client secret: only its hash and first characters are stored. */
export interface IdentityUaClientSecretTable {
  id: string;
  identity_id: string;
  /** The universal-auth configuration (identity_auth_methods row) the secret belongs to. */
  auth_method_id: string;
  description: string;
  client_secret_prefix: string;
  /** Hex SHA-256 of the secret. */
  client_secret_hash: string;
  client_secret_num_uses: number;
  client_secret_num_uses_limit: number;
  client_secret_ttl: number;
  is_client_secret_revoked: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

type NullableTimestamp = ColumnType<Date | string | null, string | null | undefined, string | null>;

/** Failed universal-auth logins of one client id, and the lockout they led to (times: epoch ms). */
export interface IdentityUaLockoutTable {
  auth_method_id: string;
  client_id: string;
  identity_id: string;
  failed_attempts: number;
  locked_until: number | null;
  /** When this record stops counting: the counter reset window, or the end of the lockout. */
  expires_at: number;
}

export interface ProjectTable {
  id: string;
  org_id: string;
  name: string;
  slug: string;
  description: string | null;
  type: string;
  default_product: string | null;
  auto_capitalization: Generated<Flag>;
  version: number;
  upgrade_status: string | null;
  pit_version_limit: number;
  kms_certificate_key_id: string | null;
  kms_secret_manager_key_id: string | null;
  audit_logs_retention_days: number | null;
  has_delete_protection: Generated<Flag>;
  secret_sharing: Generated<Flag>;
  show_snapshots_legacy: Generated<Flag>;
  /** JSON array of strings, or null. */
  secret_detection_ignore_values: string | null;
  enforce_encrypted_secret_manager_secret_metadata: Flag | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProjectEnvironmentTable {
  id: string;
  project_id: string;
  name: string;
  slug: string;
  /** 1-based order of the environment in its project. */
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A custom project role; the predefined roles (admin, member, viewer, no-access) live in code. */
export interface ProjectRoleTable {
  id: string;
  project_id: string;
  name: string;
  slug: string;
  description: string | null;
  /** JSON of the CASL rules, packed (packRules). */
  permissions: string;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A minimal user record, enough to invite users into projects by email. */
export interface UserTable {
  id: string;
  email: string | null;
  username: string;
  first_name: string | null;
  last_name: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One membership of a user (user_id) or an identity (identity_id) in a project. */
export interface ProjectMembershipTable {
  id: string;
  project_id: string;
  user_id: string | null;
  identity_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One role held through a project membership, permanent or temporary. */
export interface ProjectMembershipRoleTable {
  id: string;
  membership_id: string;
  /** The slug of a predefined role, or "custom" (then custom_role_id is set). */
  role: string;
  custom_role_id: string | null;
  is_temporary: Generated<Flag>;
  temporary_mode: string | null;
  temporary_range: string | null;
  temporary_access_start_time: NullableTimestamp;
  temporary_access_end_time: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An additional privilege of an identity in a project (through its project membership). */
export interface IdentityProjectPrivilegeTable {
  id: string;
  project_membership_id: string;
  slug: string;
  /** JSON of the CASL rules (packed or unpacked). */
  permissions: string;
  is_temporary: Generated<Flag>;
  temporary_mode: string | null;
  temporary_range: string | null;
  temporary_access_start_time: NullableTimestamp;
  temporary_access_end_time: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Database {
  instance: InstanceTable;
  organizations: OrganizationTable;
  identities: IdentityTable;
  identity_org_memberships: IdentityOrgMembershipTable;
  identity_metadata: IdentityMetadataTable;
  identity_auth_methods: IdentityAuthMethodTable;
  identity_access_tokens: IdentityAccessTokenTable;
  identity_ua_client_secrets: IdentityUaClientSecretTable;
  identity_ua_lockouts: IdentityUaLockoutTable;
  projects: ProjectTable;
  project_environments: ProjectEnvironmentTable;
  project_roles: ProjectRoleTable;
  users: UserTable;
  project_memberships: ProjectMembershipTable;
  project_membership_roles: ProjectMembershipRoleTable;
  identity_project_privileges: IdentityProjectPrivilegeTable;
  integration_auths: IntegrationAuthTable;
  integrations: IntegrationTable;
  secret_imports: SecretImportTable;
  project_data_keys: ProjectDataKeyTable;
  secret_folders: SecretFolderTable;
  secret_tags: SecretTagTable;
  secrets: SecretTable;
  secret_versions: SecretVersionTable;
  secret_tag_links: SecretTagLinkTable;
  folder_commits: FolderCommitTable;
  audit_events: AuditEventTable;
  audit_chain_heads: AuditChainHeadTable;
  audit_log_streams: AuditLogStreamTable;
}

export type IdentityRow = Selectable<IdentityTable>;
export type MembershipRow = Selectable<IdentityOrgMembershipTable>;
export type MetadataRow = Selectable<IdentityMetadataTable>;
export type AuthMethodRow = Selectable<IdentityAuthMethodTable>;
export type NewAuthMethod = Insertable<IdentityAuthMethodTable>;
export type AuthMethodPatch = Updateable<IdentityAuthMethodTable>;
export type AccessTokenRow = Selectable<IdentityAccessTokenTable>;
export type NewAccessToken = Insertable<IdentityAccessTokenTable>;
export type ClientSecretRow = Selectable<IdentityUaClientSecretTable>;
export type NewClientSecret = Insertable<IdentityUaClientSecretTable>;
export type ProjectRow = Selectable<ProjectTable>;
export type NewProject = Insertable<ProjectTable>;
export type ProjectPatch = Updateable<ProjectTable>;
export type ProjectEnvironmentRow = Selectable<ProjectEnvironmentTable>;
export type ProjectRoleRow = Selectable<ProjectRoleTable>;
export type NewProjectRole = Insertable<ProjectRoleTable>;
export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type ProjectMembershipRow = Selectable<ProjectMembershipTable>;
export type NewProjectMembership = Insertable<ProjectMembershipTable>;
export type ProjectMembershipRoleRow = Selectable<ProjectMembershipRoleTable>;
export type NewProjectMembershipRole = Insertable<ProjectMembershipRoleTable>;
export type IdentityProjectPrivilegeRow = Selectable<IdentityProjectPrivilegeTable>;
export type NewIdentityProjectPrivilege = Insertable<IdentityProjectPrivilegeTable>;
