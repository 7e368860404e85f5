import type { ExpressionBuilder } from "kysely";
import type { Database } from "../db/schema.ts";

/**
 * Each auth method as the wire names it, with the table holding its configuration (one row per
 * identity). Adding a method is adding a line here.
 */
export const authMethodTables = [["token-auth", "identity_token_auths"]] as const;

export type AuthMethodName = (typeof authMethodTables)[number][0];

/** One `auth_<n>` column per method: whether the identity aliased `i` has it attached. */
export function authMethodFlags(eb: ExpressionBuilder<Database & { i: Database["identities"] }, "i">) {
  return authMethodTables.map(([, table], n) =>
    eb
      .exists(eb.selectFrom(table).select(eb.lit(1).as("one")).whereRef(`${table}.identity_id`, "=", "i.id"))
      .as(`auth_${n}`),
  );
}

/** The attached methods, in table order, from a row carrying the `auth_<n>` columns. */
export function authMethodsOf(row: Record<string, unknown>): AuthMethodName[] {
  // SQLite answers 0 or 1, PostgreSQL a boolean.
  return authMethodTables.filter((_, n) => Boolean(row[`auth_${n}`])).map(([name]) => name);
}
