import { type Kysely, sql } from "kysely";
import type { AccessTokenRow, Database, NewAccessToken } from "../db/schema.ts";

export async function insertAccessToken(db: Kysely<Database>, token: NewAccessToken): Promise<AccessTokenRow> {
  return db.insertInto("identity_access_tokens").values(token).returningAll().executeTakeFirstOrThrow();
}

export async function findAccessToken(db: Kysely<Database>, id: string): Promise<AccessTokenRow | undefined> {
  return db.selectFrom("identity_access_tokens").selectAll().where("id", "=", id).executeTakeFirst();
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
