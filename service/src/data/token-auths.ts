import type { Kysely } from "kysely";
import type { Database, TokenAuthRow } from "../db/schema.ts";

export interface StoredTrustedIp {
  ipAddress: string;
  type: "ipv4" | "ipv6";
  prefix?: number;
}

export async function findTokenAuth(db: Kysely<Database>, identityId: string): Promise<TokenAuthRow | undefined> {
  return db.selectFrom("identity_token_auths").selectAll().where("identity_id", "=", identityId).executeTakeFirst();
}

export async function insertTokenAuth(
  db: Kysely<Database>,
  input: {
    id: string;
    identityId: string;
    accessTokenTTL: number;
    accessTokenMaxTTL: number;
    accessTokenNumUsesLimit: number;
    accessTokenTrustedIps: StoredTrustedIp[];
  },
  now: string,
): Promise<TokenAuthRow | undefined> {
  // One token auth per identity: a concurrent second attach inserts nothing instead of failing.
  return db
    .insertInto("identity_token_auths")
    .values({
      id: input.id,
      identity_id: input.identityId,
      access_token_ttl: input.accessTokenTTL,
      access_token_max_ttl: input.accessTokenMaxTTL,
      access_token_num_uses_limit: input.accessTokenNumUsesLimit,
      access_token_period: 0,
      access_token_trusted_ips: JSON.stringify(input.accessTokenTrustedIps),
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column("identity_id").doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function deleteTokenAuth(db: Kysely<Database>, identityId: string): Promise<TokenAuthRow | undefined> {
  return db.deleteFrom("identity_token_auths").where("identity_id", "=", identityId).returningAll().executeTakeFirst();
}
