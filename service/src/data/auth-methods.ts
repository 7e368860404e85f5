import type { ExpressionBuilder, Kysely } from "kysely";
import { preparedQuery } from "../db/prepared.ts";
import type { AuthMethodPatch, AuthMethodRow, Database, NewAuthMethod } from "../db/schema.ts";

/** The auth methods, as the wire names them, in the order identities list them. */
export const authMethodNames = ["token-auth", "universal-auth", "kubernetes-auth", "oidc-auth", "aws-auth"] as const;
export type AuthMethodName = (typeof authMethodNames)[number];

export interface StoredTrustedIp {
  ipAddress: string;
  type: "ipv4" | "ipv6";
  prefix?: number;
}

/** One `auth_<n>` column per method: whether the identity aliased `i` has it attached. */
export function authMethodFlags(eb: ExpressionBuilder<Database & { i: Database["identities"] }, "i">) {
  return authMethodNames.map((method, n) =>
    eb
      .exists(
        eb
          .selectFrom("identity_auth_methods as am")
          .select(eb.lit(1).as("one"))
          .whereRef("am.identity_id", "=", "i.id")
          .where("am.method", "=", method),
      )
      .as(`auth_${n}`),
  );
}

/** The attached methods, in list order, from a row carrying the `auth_<n>` columns. */
export function authMethodsOf(row: Record<string, unknown>): AuthMethodName[] {
  // SQLite answers 0 or 1, PostgreSQL a boolean.
  return authMethodNames.filter((_, n) => Boolean(row[`auth_${n}`]));
}

const configOf = preparedQuery(["identityId", "method"], (db, { identityId, method }) =>
  db.selectFrom("identity_auth_methods").selectAll().where("identity_id", "=", identityId).where("method", "=", method),
);

export async function findAuthMethod(
  db: Kysely<Database>,
  identityId: string,
  method: AuthMethodName,
): Promise<AuthMethodRow | undefined> {
  return (await configOf(db, { identityId, method }))[0];
}

/** Inserts a configuration; a second one for the same identity and method inserts nothing. */
export async function insertAuthMethod(db: Kysely<Database>, row: NewAuthMethod): Promise<AuthMethodRow | undefined> {
  return db
    .insertInto("identity_auth_methods")
    .values(row)
    .onConflict((oc) => oc.columns(["identity_id", "method"]).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function updateAuthMethod(
  db: Kysely<Database>,
  id: string,
  patch: AuthMethodPatch,
): Promise<AuthMethodRow | undefined> {
  return db.updateTable("identity_auth_methods").set(patch).where("id", "=", id).returningAll().executeTakeFirst();
}

export async function deleteAuthMethod(
  db: Kysely<Database>,
  identityId: string,
  method: AuthMethodName,
): Promise<AuthMethodRow | undefined> {
  return db
    .deleteFrom("identity_auth_methods")
    .where("identity_id", "=", identityId)
    .where("method", "=", method)
    .returningAll()
    .executeTakeFirst();
}
