import { randomUUID } from "node:crypto";
import { ALLOW_ALL_IPS, DEFAULT_TOKEN_TTL } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { insertIdentity } from "../data/identities.ts";
import { findInstance, type InstanceRecord, insertInstance, insertOrganization } from "../data/organizations.ts";
import { findTokenAuth, insertTokenAuth } from "../data/token-auths.ts";
import type { Database } from "../db/schema.ts";
import { writeSecretFile } from "../lib/files.ts";
import { nowIso } from "../lib/time.ts";
import { parseTrustedIp } from "../lib/trusted-ips.ts";
import { type AccessTokenService, TOKEN_AUTH_METHOD } from "./access-tokens.ts";

export interface BootstrapResult extends InstanceRecord {
  /** The admin token written on this start; null when the database was already set up. */
  bootstrapToken: string | null;
}

/** Issues a fresh token for the admin identity and writes it, alone, to a 0600 file. */
export async function issueAdminToken(
  deps: { db: Kysely<Database>; accessTokens: AccessTokenService },
  adminIdentityId: string,
  file: string,
): Promise<string> {
  const config = await findTokenAuth(deps.db, adminIdentityId);
  if (!config) throw new Error("The admin identity has no token auth attached, so no admin token can be issued");
  const { accessToken } = await deps.accessTokens.issue({
    identityId: adminIdentityId,
    authMethod: TOKEN_AUTH_METHOD,
    name: "admin-token",
    accessTokenTTL: config.access_token_ttl,
    accessTokenMaxTTL: config.access_token_max_ttl,
    accessTokenNumUsesLimit: config.access_token_num_uses_limit,
  });
  writeSecretFile(file, accessToken);
  return accessToken;
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
  await deps.db.transaction().execute(async (trx) => {
    await insertOrganization(trx, { id: record.orgId, name: "Keyhold", slug: "keyhold" }, now);
    await insertIdentity(
      trx,
      { id: record.adminIdentityId, orgId: record.orgId, name: "admin", hasDeleteProtection: true, role: "admin" },
      now,
    );
    await insertTokenAuth(
      trx,
      {
        id: randomUUID(),
        identityId: record.adminIdentityId,
        accessTokenTTL: DEFAULT_TOKEN_TTL,
        accessTokenMaxTTL: DEFAULT_TOKEN_TTL,
        accessTokenNumUsesLimit: 0,
        accessTokenTrustedIps: ALLOW_ALL_IPS.map(({ ipAddress }) => parseTrustedIp(ipAddress)).filter((ip) => !!ip),
      },
      now,
    );
    await insertInstance(trx, record, now);
  });

  const bootstrapToken = await issueAdminToken(deps, record.adminIdentityId, adminTokenFile);
  deps.logger.info(
    { adminTokenFile, orgId: record.orgId, adminIdentityId: record.adminIdentityId },
    "Empty database set up: an admin access token was written to the admin token file",
  );
  return { ...record, bootstrapToken };
}
