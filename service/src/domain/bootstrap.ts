import { randomUUID } from "node:crypto";
import path from "node:path";
import { ALLOW_ALL_IPS, DEFAULT_TOKEN_TTL } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { insertIdentity } from "../data/identities.ts";
import { findInstance, type InstanceRecord, insertInstance, insertOrganization } from "../data/organizations.ts";
import { findAuthMethod, insertAuthMethod } from "../data/auth-methods.ts";
import type { Database } from "../db/schema.ts";
import { ensureDataDir, writeSecretFile } from "../lib/files.ts";
import { nowIso } from "../lib/time.ts";
import { parseTrustedIp } from "../lib/trusted-ips.ts";
import { type AccessTokenService, TOKEN_AUTH_METHOD } from "./access-tokens.ts";

export interface BootstrapResult extends InstanceRecord {
  /** The admin token written on this start; null when the database was already set up. */
  bootstrapToken: string | null;
}

/** Issues a token for the admin identity in `trx` and writes it, alone, to a 0600 file. */
async function writeAdminToken(
  trx: Kysely<Database>,
  accessTokens: AccessTokenService,
  adminIdentityId: string,
  file: string,
): Promise<string> {
  const config = await findAuthMethod(trx, adminIdentityId, TOKEN_AUTH_METHOD);
  if (!config) throw new Error("The admin identity has no token auth attached, so no admin token can be issued");
  const { accessToken } = await accessTokens.issue(
    {
      identityId: adminIdentityId,
      authMethod: TOKEN_AUTH_METHOD,
      name: "admin-token",
      accessTokenTTL: config.access_token_ttl,
      accessTokenMaxTTL: config.access_token_max_ttl,
      accessTokenNumUsesLimit: config.access_token_num_uses_limit,
    },
    trx,
  );
  writeSecretFile(file, accessToken);
  return accessToken;
}

/**
 * Issues a fresh admin token into `file`. Row and file go together: when the file cannot
 * be written, the token's row is rolled back.
 */
export async function issueAdminToken(
  deps: { db: Kysely<Database>; accessTokens: AccessTokenService },
  adminIdentityId: string,
  file: string,
): Promise<string> {
  ensureDataDir(path.dirname(file));
  return deps.db.transaction().execute((trx) => writeAdminToken(trx, deps.accessTokens, adminIdentityId, file));
}

/**
 * On an empty database: an organisation, an `admin` identity (org role admin, token auth,
 * delete protection) and one admin token in `adminTokenFile`. The log names the file only.
 */
export async function bootstrap(
  deps: { db: Kysely<Database>; accessTokens: AccessTokenService; logger: Logger },
  adminTokenFile: string,
): Promise<BootstrapResult> {
  const existing = await findInstance(deps.db);
  if (existing) return { ...existing, bootstrapToken: null };

  const record: InstanceRecord = { orgId: randomUUID(), adminIdentityId: randomUUID() };
  const now = nowIso();
  ensureDataDir(path.dirname(adminTokenFile));
  // Set-up and the admin token commit together: a token file that cannot be written
  // leaves the database empty, so the next start sets up again instead of running tokenless.
  const bootstrapToken = await deps.db.transaction().execute(async (trx) => {
    await insertOrganization(trx, { id: record.orgId, name: "Keyhold", slug: "keyhold" }, now);
    await insertIdentity(
      trx,
      { id: record.adminIdentityId, orgId: record.orgId, name: "admin", hasDeleteProtection: true, role: "admin" },
      now,
    );
    await insertAuthMethod(trx, {
      id: randomUUID(),
      identity_id: record.adminIdentityId,
      method: TOKEN_AUTH_METHOD,
      access_token_ttl: DEFAULT_TOKEN_TTL,
      access_token_max_ttl: DEFAULT_TOKEN_TTL,
      access_token_num_uses_limit: 0,
      access_token_period: 0,
      access_token_trusted_ips: JSON.stringify(
        ALLOW_ALL_IPS.map(({ ipAddress }) => parseTrustedIp(ipAddress)).filter((ip) => !!ip),
      ),
      settings: "{}",
      sealed: null,
      created_at: now,
      updated_at: now,
    });
    await insertInstance(trx, record, now);
    return writeAdminToken(trx, deps.accessTokens, record.adminIdentityId, adminTokenFile);
  });

  deps.logger.info(
    { adminTokenFile, orgId: record.orgId, adminIdentityId: record.adminIdentityId },
    "Empty database set up: an admin access token was written to the admin token file",
  );
  return { ...record, bootstrapToken };
}
