import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { AuditEventTable } from "./declarations.ts";
import { issuedTokenIds, orgEvent, projectEvent, projectIdOf, signInActor } from "./event-helpers.ts";

const NO_VALUE = "a read of identity records, which carry no secret value";

/** The project and identity an additional privilege belongs to (through its membership). */
async function privilegeOwner(db: Kysely<Database>, privilegeId: string) {
  const row = await db
    .selectFrom("identity_project_privileges as p")
    .innerJoin("project_memberships as m", "m.id", "p.project_membership_id")
    .select(["m.project_id", "m.identity_id"])
    .where("p.id", "=", privilegeId)
    .executeTakeFirst();
  return { projectId: row?.project_id ?? null, identityId: row?.identity_id ?? null };
}

type PrivilegeAnswer = { id: string; slug: string; isTemporary: boolean; temporaryRange?: string | null };

/** What a privilege event records: which one, for whom, and its rules as a mid-2026 role event does (JSON text). */
const privilegeMetadata = (identityId: string | null, privilege: PrivilegeAnswer, rules?: unknown) => ({
  identityId,
  privilegeId: privilege.id,
  privilegeSlug: privilege.slug,
  isTemporary: privilege.isTemporary,
  ...(privilege.temporaryRange && { temporaryRange: privilege.temporaryRange }),
  ...(rules !== undefined && { permissions: JSON.stringify(rules) }),
});

/** Identities, their tokens and client secrets, access tokens, and identities' additional privileges. */
export const identityEvents = {
  "identities.list": { none: NO_VALUE },
  "identities.search": { none: NO_VALUE },
  "identities.listOrgMemberships": { none: NO_VALUE },
  "identities.listProjectMemberships": { none: NO_VALUE },
  "identities.get": { none: NO_VALUE },
  "identities.create": {
    type: "create-identity",
    event: ({ result }) =>
      orgEvent({
        name: result.identity.name,
        identityId: result.identity.id,
        hasDeleteProtection: result.identity.hasDeleteProtection,
      }),
  },
  "identities.update": {
    type: "update-identity",
    event: ({ body, result }) =>
      orgEvent({
        name: result.identity.name,
        identityId: result.identity.id,
        hasDeleteProtection: result.identity.hasDeleteProtection,
        ...(body.role !== undefined && { role: body.role }),
      }),
  },
  "identities.delete": {
    type: "delete-identity",
    event: ({ result }) => orgEvent({ identityId: result.identity.id }),
  },

  "tokenAuth.createToken": {
    type: "create-token-identity-token-auth",
    event: ({ params, result }) =>
      orgEvent({
        identityId: params.identityId,
        identityAccessTokenId: result.tokenData?.id ?? issuedTokenIds(result.accessToken).identityAccessTokenId,
      }),
  },
  "tokenAuth.listTokens": {
    type: "get-tokens-identity-token-auth",
    event: ({ params }) => orgEvent({ identityId: params.identityId }),
  },
  "tokenAuth.updateToken": {
    type: "update-token-identity-token-auth",
    event: ({ result }) =>
      orgEvent({ identityId: result.token.identityId, tokenId: result.token.id, name: result.token.name ?? null }),
  },
  "tokenAuth.revokeToken": {
    type: "revoke-token-identity-token-auth",
    event: async ({ params, db }) => {
      const row = await db
        .selectFrom("identity_access_tokens")
        .select("identity_id")
        .where("id", "=", params.tokenId)
        .executeTakeFirst();
      return orgEvent({ identityId: row?.identity_id ?? null, tokenId: params.tokenId });
    },
  },

  "universalAuth.createClientSecret": {
    type: "create-identity-universal-auth-client-secret",
    event: ({ params, result }) =>
      orgEvent({
        identityId: params.identityId,
        clientSecretId: result.clientSecretData.id,
        clientSecretPrefix: result.clientSecretData.clientSecretPrefix,
      }),
  },
  "universalAuth.listClientSecrets": {
    type: "get-identity-universal-auth-client-secret",
    event: ({ params }) => orgEvent({ identityId: params.identityId }),
  },
  "universalAuth.getClientSecret": {
    type: "get-identity-universal-auth-client-secret-by-id",
    event: ({ params }) => orgEvent({ identityId: params.identityId, clientSecretId: params.clientSecretId }),
  },
  "universalAuth.revokeClientSecret": {
    type: "revoke-identity-universal-auth-client-secret",
    event: ({ params }) => orgEvent({ identityId: params.identityId, clientSecretId: params.clientSecretId }),
  },
  "universalAuth.clearLockouts": {
    type: "clear-identity-universal-auth-lockouts",
    event: ({ params, result }) => orgEvent({ identityId: params.identityId, deleted: result.deleted }),
  },

  // Renewal and revocation take the token in the body, not as a bearer: the token's identity acted.
  "accessTokens.renew": {
    type: "renew-identity-access-token",
    event: async ({ db, result }) => {
      const ids = issuedTokenIds(result.accessToken);
      const actor = await signInActor(db, ids.identityId);
      return actor && { projectId: null, actor, metadata: { ...ids } };
    },
  },
  "accessTokens.revoke": {
    type: "revoke-identity-access-token",
    event: async ({ db, body }) => {
      const ids = issuedTokenIds(body.accessToken);
      const actor = await signInActor(db, ids.identityId);
      return (
        actor && {
          projectId: null,
          actor,
          metadata: { identityId: ids.identityId, identityAccessTokenId: ids.identityAccessTokenId },
        }
      );
    },
  },

  "identityPrivileges.listV1": { none: NO_VALUE },
  "identityPrivileges.getBySlugV1": { none: NO_VALUE },
  "identityPrivileges.list": { none: NO_VALUE },
  "identityPrivileges.get": { none: NO_VALUE },
  "identityPrivileges.getBySlug": { none: NO_VALUE },
  "identityPrivileges.createPermanentV1": {
    type: "create-identity-project-additional-privilege",
    event: async ({ actor, db, body, result }) =>
      projectEvent(
        await projectIdOf(db, actor?.orgId, { projectSlug: body.projectSlug }),
        privilegeMetadata(body.identityId, result.privilege, result.privilege.permissions),
      ),
  },
  "identityPrivileges.createTemporaryV1": {
    type: "create-identity-project-additional-privilege",
    event: async ({ actor, db, body, result }) =>
      projectEvent(
        await projectIdOf(db, actor?.orgId, { projectSlug: body.projectSlug }),
        privilegeMetadata(body.identityId, result.privilege, result.privilege.permissions),
      ),
  },
  "identityPrivileges.updateV1": {
    type: "update-identity-project-additional-privilege",
    event: async ({ actor, db, body, result }) =>
      projectEvent(
        await projectIdOf(db, actor?.orgId, { projectSlug: body.projectSlug }),
        privilegeMetadata(body.identityId, result.privilege, result.privilege.permissions),
      ),
  },
  "identityPrivileges.deleteV1": {
    type: "delete-identity-project-additional-privilege",
    event: async ({ actor, db, body, result }) =>
      projectEvent(
        await projectIdOf(db, actor?.orgId, { projectSlug: body.projectSlug }),
        privilegeMetadata(body.identityId, result.privilege),
      ),
  },
  "identityPrivileges.create": {
    type: "create-identity-project-additional-privilege",
    event: ({ body, result }) =>
      projectEvent(body.projectId, privilegeMetadata(body.identityId, result.privilege, result.privilege.permissions)),
  },
  "identityPrivileges.update": {
    type: "update-identity-project-additional-privilege",
    event: async ({ db, params, result }) => {
      const owner = await privilegeOwner(db, params.id);
      return projectEvent(
        owner.projectId,
        privilegeMetadata(owner.identityId, result.privilege, result.privilege.permissions),
      );
    },
  },
  // The privilege is gone by now, and its answer names neither project nor identity.
  "identityPrivileges.delete": {
    type: "delete-identity-project-additional-privilege",
    event: ({ result }) => orgEvent(privilegeMetadata(null, result.privilege)),
  },
} satisfies Partial<AuditEventTable>;
