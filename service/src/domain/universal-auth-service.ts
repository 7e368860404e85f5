import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { ClientSecretRecord, Endpoints, ResponseOf } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { findAuthMethod } from "../data/auth-methods.ts";
import {
  consumeClientSecretUse,
  findClientSecret,
  findClientSecretForLogin,
  insertClientSecret,
  listActiveClientSecrets,
  revokeClientSecret,
} from "../data/client-secrets.ts";
import { recordLogin } from "../data/identities.ts";
import type { ClientSecretRow, Database } from "../db/schema.ts";
import { nowIso, toIso, toMillis } from "../lib/time.ts";
import { trustedIpMatcher } from "../lib/trusted-ips.ts";
import type { AccessTokenService, Actor, IssuedToken } from "./access-tokens.ts";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "./errors.ts";
import type { IdentityService } from "./identity-service.ts";
import { issuedTokenOf } from "./sign-in.ts";
import { assertOrgPermission, assertWithinBoundary, type OrgAction } from "./permissions.ts";

export const UNIVERSAL_AUTH_METHOD = "universal-auth";

type CreateClientSecretBody = z.output<Endpoints["universalAuth.createClientSecret"]["body"]>;
type CreateClientSecretResponse = ResponseOf<Endpoints["universalAuth.createClientSecret"]>;

/** The stored form of a client secret: its hex SHA-256 (the secret is 32 random bytes). */
export function hashClientSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

function toClientSecretRecord(row: ClientSecretRow): ClientSecretRecord {
  return {
    id: row.id,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    description: row.description,
    clientSecretPrefix: row.client_secret_prefix,
    clientSecretNumUses: row.client_secret_num_uses,
    clientSecretNumUsesLimit: row.client_secret_num_uses_limit,
    clientSecretTTL: row.client_secret_ttl,
    identityUAId: row.auth_method_id,
    isClientSecretRevoked: row.is_client_secret_revoked === 1,
  };
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Universal auth's own operations (client secrets and login); its configuration is the auth-method service's. */
export function createUniversalAuthService(deps: {
  db: Kysely<Database>;
  identities: IdentityService;
  accessTokens: AccessTokenService;
}) {
  const { db, identities, accessTokens } = deps;

  /** The identity's universal-auth configuration, after the permission and boundary checks. */
  async function configFor(actor: Actor, identityId: string, action: OrgAction, purpose: OrgAction) {
    assertOrgPermission(actor.ability, action, "identity");
    const target = await identities.requireMembership(actor, identityId);
    assertWithinBoundary(actor.ability, target.membership.role, purpose);
    const config = await findAuthMethod(db, identityId, UNIVERSAL_AUTH_METHOD);
    if (!config) throw new NotFoundError("Universal auth is not attached to this identity");
    return config;
  }

  const invalidCredentials = () => new UnauthorizedError("Invalid credentials");

  return {
    /** A new secret, returned once: only its hash and first four characters are kept. */
    async createClientSecret(
      actor: Actor,
      identityId: string,
      body: CreateClientSecretBody,
    ): Promise<CreateClientSecretResponse> {
      const config = await configFor(actor, identityId, "create", "create-token");
      const clientSecret = randomBytes(32).toString("hex");
      const now = nowIso();
      const row = await insertClientSecret(db, {
        id: randomUUID(),
        identity_id: identityId,
        auth_method_id: config.id,
        description: body.description,
        client_secret_prefix: clientSecret.slice(0, 4),
        client_secret_hash: hashClientSecret(clientSecret),
        client_secret_num_uses: 0,
        client_secret_num_uses_limit: body.numUsesLimit,
        client_secret_ttl: body.ttl,
        is_client_secret_revoked: 0,
        created_at: now,
        updated_at: now,
      });
      return { clientSecret, clientSecretData: toClientSecretRecord(row) };
    },

    async listClientSecrets(actor: Actor, identityId: string): Promise<ClientSecretRecord[]> {
      const config = await configFor(actor, identityId, "read", "get-token");
      return (await listActiveClientSecrets(db, config.id)).map(toClientSecretRecord);
    },

    async getClientSecret(actor: Actor, identityId: string, clientSecretId: string): Promise<ClientSecretRecord> {
      const config = await configFor(actor, identityId, "read", "get-token");
      const row = await findClientSecret(db, config.id, clientSecretId);
      if (!row) throw new NotFoundError(`No client secret with id ${clientSecretId} for this identity`);
      return toClientSecretRecord(row);
    },

    async revokeClientSecret(actor: Actor, identityId: string, clientSecretId: string): Promise<ClientSecretRecord> {
      const config = await configFor(actor, identityId, "delete", "delete-token");
      const row = await revokeClientSecret(db, clientSecretId, nowIso(), config.id);
      if (!row) throw new NotFoundError(`No client secret with id ${clientSecretId} for this identity`);
      return toClientSecretRecord(row);
    },

    /**
     * Signs in with a client id and secret. The secret is found by its hash; then, in order:
     * it belongs to that client id and is not revoked (else 401 "Invalid credentials", as for
     * an unknown secret), the caller's address is within the client-secret trusted IPs (403),
     * the secret's TTL has not run out, and one of its uses is left, taken atomically together
     * with issuing the token. An expired or used-up secret is revoked.
     */
    async login(clientId: string, clientSecret: string, callerIp: string): Promise<IssuedToken> {
      const found = await findClientSecretForLogin(db, hashClientSecret(clientSecret));
      const settings = found ? (JSON.parse(found.config.settings) as Record<string, unknown>) : {};
      if (
        !found ||
        typeof settings.clientId !== "string" ||
        !sameText(settings.clientId, clientId) ||
        found.secret.is_client_secret_revoked === 1 ||
        found.membershipId === null
      ) {
        throw invalidCredentials();
      }
      const { secret, config, membershipId } = found;
      if (!trustedIpMatcher(JSON.stringify(settings.clientSecretTrustedIps ?? []))(callerIp)) {
        throw new ForbiddenError("This client secret may not be used from your IP address");
      }
      const now = nowIso();
      if (secret.client_secret_ttl > 0 && Date.now() > toMillis(secret.created_at) + secret.client_secret_ttl * 1000) {
        await revokeClientSecret(db, secret.id, now);
        throw new UnauthorizedError("Access denied due to expired client secret");
      }

      const issued = await db.transaction().execute(async (trx) => {
        if (!(await consumeClientSecretUse(trx, secret.id, now))) return undefined;
        return accessTokens.issue(
          {
            identityId: secret.identity_id,
            authMethod: UNIVERSAL_AUTH_METHOD,
            name: null,
            accessTokenTTL: config.accessTokenTTL,
            accessTokenMaxTTL: config.accessTokenMaxTTL,
            accessTokenNumUsesLimit: config.accessTokenNumUsesLimit,
            clientSecretId: secret.id,
          },
          trx,
        );
      });
      if (!issued) {
        // Revoked by someone else meanwhile, or its last use was taken by another login.
        if (secret.client_secret_num_uses_limit === 0) throw invalidCredentials();
        await revokeClientSecret(db, secret.id, now);
        throw new UnauthorizedError("Access denied due to client secret usage limit reached");
      }
      await recordLogin(db, membershipId, UNIVERSAL_AUTH_METHOD, now);
      return issuedTokenOf(issued);
    },
  };
}

export type UniversalAuthService = ReturnType<typeof createUniversalAuthService>;
