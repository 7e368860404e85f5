import type { ColumnType, Insertable, Selectable, Updateable } from "kysely";

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

export interface Database {
  instance: InstanceTable;
  organizations: OrganizationTable;
  identities: IdentityTable;
  identity_org_memberships: IdentityOrgMembershipTable;
  identity_metadata: IdentityMetadataTable;
  identity_auth_methods: IdentityAuthMethodTable;
  identity_access_tokens: IdentityAccessTokenTable;
  identity_ua_client_secrets: IdentityUaClientSecretTable;
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
