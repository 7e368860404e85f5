import { type Kysely, sql } from "kysely";
import type { ClientSecretRow, Database, NewClientSecret } from "../db/schema.ts";

export async function insertClientSecret(db: Kysely<Database>, row: NewClientSecret): Promise<ClientSecretRow> {
  return db.insertInto("identity_ua_client_secrets").values(row).returningAll().executeTakeFirstOrThrow();
}

/** The secrets of one universal-auth configuration that are not revoked, newest first. */
export async function listActiveClientSecrets(db: Kysely<Database>, authMethodId: string): Promise<ClientSecretRow[]> {
  return db
    .selectFrom("identity_ua_client_secrets")
    .selectAll()
    .where("auth_method_id", "=", authMethodId)
    .where("is_client_secret_revoked", "=", 0)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
}

export async function findClientSecret(
  db: Kysely<Database>,
  authMethodId: string,
  id: string,
): Promise<ClientSecretRow | undefined> {
  return db
    .selectFrom("identity_ua_client_secrets")
    .selectAll()
    .where("auth_method_id", "=", authMethodId)
    .where("id", "=", id)
    .executeTakeFirst();
}

export async function revokeClientSecret(
  db: Kysely<Database>,
  id: string,
  now: string,
  authMethodId?: string,
): Promise<ClientSecretRow | undefined> {
  let query = db
    .updateTable("identity_ua_client_secrets")
    .set({ is_client_secret_revoked: 1, updated_at: now })
    .where("id", "=", id);
  if (authMethodId !== undefined) query = query.where("auth_method_id", "=", authMethodId);
  return query.returningAll().executeTakeFirst();
}

/** A secret found by its hash, with what a login needs of its configuration and identity. */
export interface ClientSecretForLogin {
  secret: ClientSecretRow;
  config: {
    id: string;
    settings: string;
    accessTokenTTL: number;
    accessTokenMaxTTL: number;
    accessTokenNumUsesLimit: number;
  };
  /** The identity's membership in its own organisation; null when it has none. */
  membershipId: string | null;
}

export async function findClientSecretForLogin(
  db: Kysely<Database>,
  hash: string,
): Promise<ClientSecretForLogin | undefined> {
  const row = await db
    .selectFrom("identity_ua_client_secrets as cs")
    .innerJoin("identity_auth_methods as am", "am.id", "cs.auth_method_id")
    .innerJoin("identities as i", "i.id", "cs.identity_id")
    .leftJoin("identity_org_memberships as m", (join) =>
      join.onRef("m.identity_id", "=", "cs.identity_id").onRef("m.org_id", "=", "i.org_id"),
    )
    .selectAll("cs")
    .select([
      "am.settings as am_settings",
      "am.access_token_ttl as am_ttl",
      "am.access_token_max_ttl as am_max_ttl",
      "am.access_token_num_uses_limit as am_num_uses_limit",
      "m.id as membership_id",
    ])
    .where("cs.client_secret_hash", "=", hash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { am_settings, am_ttl, am_max_ttl, am_num_uses_limit, membership_id, ...secret } = row;
  return {
    secret,
    config: {
      id: secret.auth_method_id,
      settings: am_settings,
      accessTokenTTL: am_ttl,
      accessTokenMaxTTL: am_max_ttl,
      accessTokenNumUsesLimit: am_num_uses_limit,
    },
    membershipId: membership_id,
  };
}

/**
 * Counts one login with a secret, atomically: the row is updated only while it is unrevoked
 * and under its limit, in a single statement, so a limit of N admits exactly N logins even
 * when they race. Returns false when no use was left (or the secret was revoked meanwhile).
 */
export async function consumeClientSecretUse(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const updated = await db
    .updateTable("identity_ua_client_secrets")
    .set({ client_secret_num_uses: sql<number>`client_secret_num_uses + 1`, updated_at: now })
    .where("id", "=", id)
    .where("is_client_secret_revoked", "=", 0)
    .where((eb) =>
      eb.or([
        eb("client_secret_num_uses_limit", "=", 0),
        eb("client_secret_num_uses", "<", eb.ref("client_secret_num_uses_limit")),
      ]),
    )
    .returning("id")
    .executeTakeFirst();
  return updated !== undefined;
}
