import { randomUUID } from "node:crypto";
import { type TrustedIpRecord, ttlWithinMax } from "@keyhold/contract";
import type { Kysely } from "kysely";
import { deleteTokensOfAuthMethod } from "../data/access-tokens.ts";
import {
  type AuthMethodName,
  deleteAuthMethod,
  findAuthMethod,
  insertAuthMethod,
  type StoredTrustedIp,
  updateAuthMethod,
} from "../data/auth-methods.ts";
import type { AuthMethodRow, Database } from "../db/schema.ts";
import type { Sealer } from "../lib/sealing.ts";
import { nowIso, toIso } from "../lib/time.ts";
import { parseTrustedIp } from "../lib/trusted-ips.ts";
import type { Actor } from "./access-tokens.ts";
import { type AuthMethodSpec, authMethodSpecs } from "./auth-method-specs.ts";
import { BadRequestError, NotFoundError } from "./errors.ts";
import type { IdentityService } from "./identity-service.ts";
import { assertOrgPermission, assertWithinBoundary } from "./permissions.ts";

/** What attach and update bodies share (the contract has validated and defaulted them). */
export interface LifetimeInput {
  accessTokenTTL?: number | undefined;
  accessTokenMaxTTL?: number | undefined;
  accessTokenNumUsesLimit?: number | undefined;
  accessTokenTrustedIps?: readonly { ipAddress: string }[] | undefined;
  [field: string]: unknown;
}

export type AuthMethodRecord = Record<string, unknown>;

/** Checks shared by every auth method's lifetime settings, repeated here whatever the schema caught. */
export function checkTokenLifetime(ttl: number, maxTtl: number): void {
  if (!ttlWithinMax(ttl, maxTtl, "update")) {
    throw new BadRequestError("The access token TTL cannot be greater than the access token max TTL");
  }
}

export function parseTrustedIps(entries: readonly { ipAddress: string }[]): StoredTrustedIp[] {
  return entries.map(({ ipAddress }) => {
    const parsed = parseTrustedIp(ipAddress);
    if (!parsed) throw new BadRequestError(`"${ipAddress}" is not a valid IPv4 or IPv6 address or CIDR block`);
    return parsed;
  });
}

const sealedColumn = (row: { id: string }) => `identity_auth_methods:${row.id}:sealed`;

/**
 * Attach, read, update and revoke for every auth method, from the method specs: one mechanism,
 * five methods. Revoking a method deletes the tokens it issued in the same transaction.
 */
export function createAuthMethodService(deps: { db: Kysely<Database>; identities: IdentityService; sealer: Sealer }) {
  const { db, identities, sealer } = deps;

  function credentialsOf(row: AuthMethodRow): Record<string, unknown> {
    return row.sealed ? (JSON.parse(sealer.open(row.sealed, sealedColumn(row))) as Record<string, unknown>) : {};
  }

  function sealCredentials(spec: AuthMethodSpec, rowId: string, values: Record<string, unknown>): string | null {
    const present = Object.fromEntries(
      (spec.credentials ?? []).flatMap((field) => (values[field] ? [[field, values[field]]] : [])),
    );
    return Object.keys(present).length === 0 ? null : sealer.seal(JSON.stringify(present), sealedColumn({ id: rowId }));
  }

  function toRecord(spec: AuthMethodSpec, row: AuthMethodRow): AuthMethodRecord {
    const credentials = credentialsOf(row);
    const settings = JSON.parse(row.settings) as Record<string, unknown>;
    return {
      id: row.id,
      identityId: row.identity_id,
      accessTokenTTL: row.access_token_ttl,
      accessTokenMaxTTL: row.access_token_max_ttl,
      accessTokenNumUsesLimit: row.access_token_num_uses_limit,
      accessTokenTrustedIps: JSON.parse(row.access_token_trusted_ips) as TrustedIpRecord[],
      // Every setting is on the record, null when it was never given (as Infisical sends them).
      ...Object.fromEntries(spec.settings.map((field) => [field, settings[field] ?? null])),
      ...Object.fromEntries((spec.ipLists ?? []).map((field) => [field, settings[field] ?? []])),
      ...Object.fromEntries(Object.entries(settings).filter(([field]) => !spec.settings.includes(field))),
      ...Object.fromEntries((spec.credentials ?? []).map((field) => [field, credentials[field] ?? null])),
      ...spec.fixed,
      ...(spec.period && { accessTokenPeriod: row.access_token_period }),
      createdAt: toIso(row.created_at),
      updatedAt: toIso(row.updated_at),
    };
  }

  /** The method's own settings from a body: plain fields as given, IP lists parsed and stored. */
  function settingsFrom(spec: AuthMethodSpec, input: LifetimeInput): Record<string, unknown> {
    const settings: Record<string, unknown> = {};
    for (const field of spec.settings) if (input[field] !== undefined) settings[field] = input[field];
    for (const field of spec.ipLists ?? []) {
      const list = input[field] as { ipAddress: string }[] | undefined;
      if (list !== undefined) settings[field] = parseTrustedIps(list);
    }
    return settings;
  }

  async function requireConfig(spec: AuthMethodSpec, identityId: string): Promise<AuthMethodRow> {
    const row = await findAuthMethod(db, identityId, spec.name);
    if (!row) throw new NotFoundError(`${spec.label} is not attached to this identity`);
    return row;
  }

  /** The target's membership, after the checks every change to an identity's auth needs. */
  async function targetForChange(actor: Actor, identityId: string) {
    assertOrgPermission(actor.ability, "edit", "identity");
    const target = await identities.requireMembership(actor, identityId);
    assertWithinBoundary(actor.ability, target.membership.role, "revoke-auth");
    return target;
  }

  return {
    specs: authMethodSpecs,

    async attach(actor: Actor, method: AuthMethodName, identityId: string, input: LifetimeInput) {
      const spec = authMethodSpecs[method];
      assertOrgPermission(actor.ability, "create", "identity");
      await identities.requireMembership(actor, identityId);
      const ttl = input.accessTokenTTL ?? 0;
      const maxTtl = input.accessTokenMaxTTL ?? 0;
      checkTokenLifetime(ttl, maxTtl);
      const id = randomUUID();
      const now = nowIso();
      const row = await insertAuthMethod(db, {
        id,
        identity_id: identityId,
        method,
        access_token_ttl: ttl,
        access_token_max_ttl: maxTtl,
        access_token_num_uses_limit: input.accessTokenNumUsesLimit ?? 0,
        access_token_period: 0,
        access_token_trusted_ips: JSON.stringify(parseTrustedIps(input.accessTokenTrustedIps ?? [])),
        settings: JSON.stringify({ ...spec.generated?.(), ...settingsFrom(spec, input) }),
        sealed: sealCredentials(spec, id, input),
        created_at: now,
        updated_at: now,
      });
      if (!row) throw new BadRequestError(`${spec.label} is already attached to this identity`);
      return toRecord(spec, row);
    },

    /**
     * The configuration a sign-in with the method checks against, credentials opened; no
     * permission checks (the caller proves who it is with the method itself).
     */
    async forSignIn(method: AuthMethodName, identityId: string) {
      const row = await findAuthMethod(db, identityId, method);
      return row && { row, record: toRecord(authMethodSpecs[method], row) };
    },

    /**
     * The configuration a dry-run login starts from, credentials opened; undefined when the method
     * is not attached. Asks what an update asks: the right to edit the identity, in the caller's
     * organisation, within the caller's boundary.
     */
    async forDryRun(actor: Actor, method: AuthMethodName, identityId: string) {
      await targetForChange(actor, identityId);
      const row = await findAuthMethod(db, identityId, method);
      return row ? toRecord(authMethodSpecs[method], row) : undefined;
    },

    async get(actor: Actor, method: AuthMethodName, identityId: string) {
      const spec = authMethodSpecs[method];
      assertOrgPermission(actor.ability, "read", "identity");
      await identities.requireMembership(actor, identityId);
      return toRecord(spec, await requireConfig(spec, identityId));
    },

    async update(actor: Actor, method: AuthMethodName, identityId: string, input: LifetimeInput) {
      const spec = authMethodSpecs[method];
      await targetForChange(actor, identityId);
      const row = await requireConfig(spec, identityId);
      const ttl = input.accessTokenTTL ?? row.access_token_ttl;
      const maxTtl = input.accessTokenMaxTTL ?? row.access_token_max_ttl;
      checkTokenLifetime(ttl, maxTtl);
      // A credential left out is kept; null clears it; a value replaces it.
      const credentials = { ...credentialsOf(row) };
      for (const field of spec.credentials ?? []) if (input[field] !== undefined) credentials[field] = input[field];
      const updated = await updateAuthMethod(db, row.id, {
        access_token_ttl: ttl,
        access_token_max_ttl: maxTtl,
        access_token_num_uses_limit: input.accessTokenNumUsesLimit ?? row.access_token_num_uses_limit,
        ...(input.accessTokenTrustedIps && {
          access_token_trusted_ips: JSON.stringify(parseTrustedIps(input.accessTokenTrustedIps)),
        }),
        settings: JSON.stringify({ ...(JSON.parse(row.settings) as object), ...settingsFrom(spec, input) }),
        sealed: sealCredentials(spec, row.id, credentials),
        updated_at: nowIso(),
      });
      if (!updated) throw new NotFoundError(`${spec.label} is not attached to this identity`);
      return toRecord(spec, updated);
    },

    /** Removes the method and, in the same transaction, every token it issued for the identity. */
    async revoke(actor: Actor, method: AuthMethodName, identityId: string) {
      const spec = authMethodSpecs[method];
      await targetForChange(actor, identityId);
      if (identityId === actor.identityId) {
        throw new BadRequestError(
          "You cannot remove the auth method of the identity you are signed in as; another admin can do it",
        );
      }
      const deleted = await db.transaction().execute(async (trx) => {
        const row = await deleteAuthMethod(trx, identityId, method);
        if (row) await deleteTokensOfAuthMethod(trx, identityId, method);
        return row;
      });
      if (!deleted) throw new NotFoundError(`${spec.label} is not attached to this identity`);
      return toRecord(spec, deleted);
    },
  };
}

export type AuthMethodService = ReturnType<typeof createAuthMethodService>;
