import type { AccessTokenRecord, Endpoints, IdentityMembership, ResponseOf } from "@keyhold/contract";
import type { MembershipWithIdentity, MetadataItem } from "../data/identities.ts";
import type { AccessTokenRow, IdentityRow } from "../db/schema.ts";
import { toIso, toIsoOrNull } from "../lib/time.ts";

/** Rows to wire records. Response schemas strip anything extra on the way out. */

export function toAccessTokenRecord(row: AccessTokenRow): AccessTokenRecord {
  return {
    id: row.id,
    identityId: row.identity_id,
    name: row.name,
    authMethod: row.auth_method,
    accessTokenTTL: row.access_token_ttl,
    accessTokenMaxTTL: row.access_token_max_ttl,
    accessTokenNumUses: row.access_token_num_uses,
    accessTokenNumUsesLimit: row.access_token_num_uses_limit,
    accessTokenPeriod: row.access_token_period,
    accessTokenLastUsedAt: toIsoOrNull(row.access_token_last_used_at),
    accessTokenLastRenewedAt: toIsoOrNull(row.access_token_last_renewed_at),
    isAccessTokenRevoked: row.is_access_token_revoked === 1,
    identityUAClientSecretId: row.identity_ua_client_secret_id,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    subOrganizationId: null,
  };
}

export function toMetadata(rows: readonly MetadataItem[]) {
  return rows.map((m) => ({ id: m.id, key: m.key, value: m.value }));
}

/** The identity record with its auth methods (the create view; update and delete strip `authMethods`). */
export type IdentityWithAuthMethods = ResponseOf<Endpoints["identities.create"]>["identity"];

export function toIdentity(
  row: IdentityRow,
  metadata: readonly MetadataItem[],
  authMethods: string[],
): IdentityWithAuthMethods {
  return {
    id: row.id,
    name: row.name,
    authMethod: authMethods[0] ?? null,
    authMethods,
    hasDeleteProtection: row.has_delete_protection === 1,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    orgId: row.org_id,
    // Project-scoped identities are a feature this service does not have.
    projectId: null,
    metadata: toMetadata(metadata),
  };
}

/**
 * An identity's membership as Infisical answers it: the list view without metadata; the detail
 * view (`metadata` given) with it, and with the identity's organisation and locked-out methods.
 */
export function toMembership(
  { membership, identity }: MembershipWithIdentity,
  authMethods: string[],
  metadata?: readonly MetadataItem[],
  activeLockoutAuthMethods: string[] = [],
): IdentityMembership {
  return {
    id: membership.id,
    role: membership.role,
    roleId: membership.role_id,
    orgId: membership.org_id,
    createdAt: toIso(membership.created_at),
    updatedAt: toIso(membership.updated_at),
    identityId: membership.identity_id,
    lastLoginAuthMethod: membership.last_login_auth_method,
    lastLoginTime: toIsoOrNull(membership.last_login_time),
    ...(metadata && { metadata: toMetadata(metadata) }),
    identity: {
      name: identity.name,
      id: identity.id,
      hasDeleteProtection: identity.has_delete_protection === 1,
      ...(metadata && { orgId: identity.org_id }),
      authMethods,
      ...(metadata && { activeLockoutAuthMethods }),
    },
  };
}
