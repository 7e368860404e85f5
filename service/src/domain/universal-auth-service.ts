import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { ClientSecretRecord, Endpoints, ResponseOf } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { findAuthMethod } from "../data/auth-methods.ts";
import {
  type ClientSecretForLogin,
  consumeClientSecretUse,
  findClientSecret,
  findClientSecretForLogin,
  insertClientSecret,
  listActiveClientSecrets,
  revokeClientSecret,
} from "../data/client-secrets.ts";
import { recordLogin } from "../data/identities.ts";
import {
  clearIdentityLockouts,
  clearLockout,
  findUniversalAuthByClientId,
  findLockout,
  type LockoutPolicy,
  recordFailedLogin,
} from "../data/lockouts.ts";
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

/** The lockout settings of a configuration; undefined when lockout is off. */
function lockoutPolicy(settings: Record<string, unknown>): LockoutPolicy | undefined {
  if (settings.lockoutEnabled !== true) return undefined;
  const seconds = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback);
  return {
    threshold: seconds(settings.lockoutThreshold, 3),
    durationMs: seconds(settings.lockoutDurationSeconds, 300) * 1000,
    counterResetMs: seconds(settings.lockoutCounterResetSeconds, 30) * 1000,
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
  const lockedOut = () =>
    new UnauthorizedError("This identity auth method is temporarily locked, please try again later");

  /** The configuration a client id names, from the secret's own when that matched, else by the id. */
  async function configForLogin(clientId: string, matched: ClientSecretForLogin | undefined) {
    if (matched) {
      return { id: matched.config.id, identityId: matched.secret.identity_id, settings: matched.config.settings };
    }
    const row = await findUniversalAuthByClientId(db, clientId);
    return row && { id: row.id, identityId: row.identity_id, settings: row.settings };
  }

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
     * Signs in with a client id and secret, in Infisical's order: an unknown client id is 401
     * "Invalid credentials"; the caller's address must be within the client-secret trusted IPs
     * (403); a locked-out client id is refused (401) even with the right secret; a secret that is
     * not one of this client id's unrevoked secrets is 401 and, with lockout on, one more failed
     * attempt (counted in the database, so every instance sees it); then the secret's TTL, and one
     * of its uses taken atomically together with issuing the token. An expired or used-up secret
     * is revoked. A successful login forgets the failed attempts.
     */
    async login(clientId: string, clientSecret: string, callerIp: string): Promise<IssuedToken> {
      const found = await findClientSecretForLogin(db, hashClientSecret(clientSecret));
      const foundClientId = found ? (JSON.parse(found.config.settings) as { clientId?: unknown }).clientId : undefined;
      const matched =
        found &&
        typeof foundClientId === "string" &&
        sameText(foundClientId, clientId) &&
        found.secret.is_client_secret_revoked === 0
          ? found
          : undefined;
      const target = await configForLogin(clientId, matched);
      if (!target) throw invalidCredentials();
      const settings = JSON.parse(target.settings) as Record<string, unknown>;
      if (!trustedIpMatcher(JSON.stringify(settings.clientSecretTrustedIps ?? []))(callerIp)) {
        throw new ForbiddenError("This client secret may not be used from your IP address");
      }
      const policy = lockoutPolicy(settings);
      const key = { authMethodId: target.id, clientId, identityId: target.identityId };
      const lockout = policy && (await findLockout(db, target.id, clientId));
      if (lockout && lockout.lockedUntil !== null && lockout.lockedUntil > Date.now()) throw lockedOut();
      if (!matched) {
        if (policy) await recordFailedLogin(db, key, policy, Date.now());
        throw invalidCredentials();
      }
      if (matched.membershipId === null) throw invalidCredentials();
      const { secret, config, membershipId } = matched;
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
      // Only a client id with failed attempts on record has anything to forget: most logins write nothing here.
      if (lockout) await clearLockout(db, target.id, clientId);
      await recordLogin(db, membershipId, UNIVERSAL_AUTH_METHOD, now);
      return issuedTokenOf(issued);
    },

    /** Lifts the identity's lockouts (and forgets failed attempts): `deleted` is how many client ids had any. */
    async clearLockouts(actor: Actor, identityId: string): Promise<{ deleted: number }> {
      await configFor(actor, identityId, "edit", "edit");
      return { deleted: await clearIdentityLockouts(db, identityId) };
    },
  };
}

export type UniversalAuthService = ReturnType<typeof createUniversalAuthService>;
