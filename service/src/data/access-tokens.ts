import { type Kysely, sql } from "kysely";
import { preparedQuery } from "../db/prepared.ts";
import type { AccessTokenRow, Database, NewAccessToken } from "../db/schema.ts";

export async function insertAccessToken(db: Kysely<Database>, token: NewAccessToken): Promise<AccessTokenRow> {
  return db.insertInto("identity_access_tokens").values(token).returningAll().executeTakeFirstOrThrow();
}

export async function findAccessToken(db: Kysely<Database>, id: string): Promise<AccessTokenRow | undefined> {
  return db.selectFrom("identity_access_tokens").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Everything an authenticated request needs to know about its token, read in one statement. */
export interface TokenForRequest {
  id: string;
  identity_id: string;
  auth_method: string;
  access_token_ttl: number;
  access_token_num_uses_limit: number;
  is_access_token_revoked: number;
  created_at: Date | string;
  access_token_last_renewed_at: Date | string | null;
  /** The identity's membership in the organisation that owns it; null when it has none. */
  membership_id: string | null;
  org_id: string | null;
  role: string | null;
  /**
   * The trusted IP ranges (stored JSON) of the auth method that issued the token; null when
   * that method is no longer attached.
   */
  trusted_ips: string | null;
  /** The claims an OIDC login mapped onto the token (JSON text); null for almost every token. */
  claim_metadata: string | null;
}

/**
 * The token's row with its identity's own membership and its auth method's trusted IPs. Every
 * value that can change (revocation, role, trusted IPs) is read fresh on each request, so a
 * change takes effect on the very next request, on every instance.
 */
const tokenForRequest = preparedQuery(["tokenId"], (db, { tokenId }) =>
  db
    .selectFrom("identity_access_tokens as t")
    .innerJoin("identities as i", "i.id", "t.identity_id")
    .leftJoin("identity_org_memberships as m", (join) =>
      join.onRef("m.identity_id", "=", "t.identity_id").onRef("m.org_id", "=", "i.org_id"),
    )
    .leftJoin("identity_auth_methods as am", (join) =>
      join.onRef("am.identity_id", "=", "t.identity_id").onRef("am.method", "=", "t.auth_method"),
    )
    .select([
      "t.id",
      "t.identity_id",
      "t.auth_method",
      "t.access_token_ttl",
      "t.access_token_num_uses_limit",
      "t.is_access_token_revoked",
      "t.created_at",
      "t.access_token_last_renewed_at",
      "m.id as membership_id",
      "m.org_id",
      "m.role",
      "am.access_token_trusted_ips as trusted_ips",
      "t.claim_metadata",
    ])
    .where("t.id", "=", tokenId),
);

export async function findTokenForRequest(db: Kysely<Database>, tokenId: string): Promise<TokenForRequest | undefined> {
  return (await tokenForRequest(db, { tokenId }))[0];
}

/** Uses of tokens without a limit, counted in memory and written in batches. */
export interface PendingUse {
  uses: number;
  lastUsedAt: string;
}

/** Adds batched uses to their tokens in one transaction; tokens deleted meanwhile are skipped. */
export async function addUses(db: Kysely<Database>, pending: ReadonlyMap<string, PendingUse>): Promise<void> {
  if (pending.size === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const [id, use] of pending) {
      await trx
        .updateTable("identity_access_tokens")
        .set({
          access_token_num_uses: sql<number>`access_token_num_uses + ${use.uses}`,
          access_token_last_used_at: use.lastUsedAt,
        })
        .where("id", "=", id)
        .execute();
    }
  });
}

/**
 * Counts one use of a token, atomically: the row is updated only while it is unrevoked and
 * under its limit, in a single statement, so a limit of N admits exactly N requests even
 * when they race. Returns false when no use was left (or the token is gone).
 */
export async function consumeUse(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const updated = await db
    .updateTable("identity_access_tokens")
    .set({
      access_token_num_uses: sql<number>`access_token_num_uses + 1`,
      access_token_last_used_at: now,
    })
    .where("id", "=", id)
    .where("is_access_token_revoked", "=", 0)
    .where((eb) =>
      eb.or([
        eb("access_token_num_uses_limit", "=", 0),
        eb("access_token_num_uses", "<", eb.ref("access_token_num_uses_limit")),
      ]),
    )
    .returning("id")
    .executeTakeFirst();
  return updated !== undefined;
}

export async function deleteAccessToken(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom("identity_access_tokens").where("id", "=", id).execute();
}

export async function deleteTokensOfAuthMethod(
  db: Kysely<Database>,
  identityId: string,
  authMethod: string,
): Promise<number> {
  const result = await db
    .deleteFrom("identity_access_tokens")
    .where("identity_id", "=", identityId)
    .where("auth_method", "=", authMethod)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** An identity's tokens issued by one auth method, revoked ones included, most recently updated first. */
export async function listTokensOfAuthMethod(
  db: Kysely<Database>,
  identityId: string,
  authMethod: string,
  page: { offset: number; limit: number },
): Promise<AccessTokenRow[]> {
  return db
    .selectFrom("identity_access_tokens")
    .selectAll()
    .where("identity_id", "=", identityId)
    .where("auth_method", "=", authMethod)
    .orderBy("updated_at", "desc")
    .orderBy("id")
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

export async function updateAccessToken(
  db: Kysely<Database>,
  id: string,
  patch: { name?: string | null; updated_at: string },
): Promise<AccessTokenRow | undefined> {
  return db.updateTable("identity_access_tokens").set(patch).where("id", "=", id).returningAll().executeTakeFirst();
}

/** Marks a token revoked; false when there is no such token or it was revoked already. */
export async function revokeAccessToken(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const updated = await db
    .updateTable("identity_access_tokens")
    .set({ is_access_token_revoked: 1, updated_at: now })
    .where("id", "=", id)
    .where("is_access_token_revoked", "=", 0)
    .returning("id")
    .executeTakeFirst();
  return updated !== undefined;
}

/** Starts a token's TTL again from `now`, unless it was revoked meanwhile. */
export async function markRenewed(db: Kysely<Database>, id: string, now: string): Promise<AccessTokenRow | undefined> {
  return db
    .updateTable("identity_access_tokens")
    .set({ access_token_last_renewed_at: now, updated_at: now })
    .where("id", "=", id)
    .where("is_access_token_revoked", "=", 0)
    .returningAll()
    .executeTakeFirst();
}
