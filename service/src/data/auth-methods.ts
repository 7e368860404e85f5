import { type ExpressionBuilder, type Kysely, sql } from "kysely";
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

/**
 * One `auth_methods` column: a bit per method (bit n for the n-th name) set when the identity
 * aliased `i` has it attached, read in one pass over its rows of the (identity, method) index
 * rather than one lookup per method.
 */
export function authMethodFlags(eb: ExpressionBuilder<Database & { i: Database["identities"] }, "i">) {
  const bits = sql.join(
    authMethodNames.map((method, n) => sql`when ${sql.lit(method)} then ${sql.lit(2 ** n)}`),
    sql` `,
  );
  return eb
    .selectFrom("identity_auth_methods as am")
    .select(sql<number>`cast(coalesce(sum(case am.method ${bits} else 0 end), 0) as integer)`.as("mask"))
    .whereRef("am.identity_id", "=", "i.id")
    .as("auth_methods");
}

/** The attached methods, in list order, from a row carrying the `auth_methods` column. */
export function authMethodsOf(row: { auth_methods: number | null }): AuthMethodName[] {
  const mask = Number(row.auth_methods ?? 0);
  return authMethodNames.filter((_, n) => (mask & (2 ** n)) !== 0);
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
