import type { Kysely } from "kysely";
import type { ChainKeys } from "../audit/chain.ts";
import { verifyChain } from "../audit/verify.ts";
import type { Database } from "../db/schema.ts";
import { assertOrgPermission } from "../domain/permissions.ts";
import type { HandlerMap } from "./handler-types.ts";

/** What verifying a chain needs: the database and the keys derived from the root key. */
export interface AuditChain {
  db: Kysely<Database>;
  keys: ChainKeys;
}

/** GET /api/v1/organization/audit-logs/verify: the caller's organisation's chain, for its admins. */
export function verifyHandler(chain: AuditChain): HandlerMap["auditLogs.verify"] {
  return async ({ actor }) => {
    assertOrgPermission(actor.ability, "manage", "all");
    return { verification: await verifyChain(chain.db, chain.keys, actor.orgId) };
  };
}
