import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { identitiesWithTokenAuth } from "./token-auths.ts";

/** The auth methods attached to each identity, as the wire names them ("token-auth", ...). */
export async function authMethodsByIdentity(
  db: Kysely<Database>,
  identityIds: readonly string[],
): Promise<Map<string, string[]>> {
  const sources: [string, Set<string>][] = [["token-auth", await identitiesWithTokenAuth(db, identityIds)]];
  return new Map(identityIds.map((id) => [id, sources.filter(([, ids]) => ids.has(id)).map(([method]) => method)]));
}
