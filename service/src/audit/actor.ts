import type { AuditActorType, UserAgentType } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { Actor } from "../domain/access-tokens.ts";
import { preparedQuery } from "../db/prepared.ts";
import type { Database } from "../db/schema.ts";

/** Who an event names as having acted: its actor columns. */
export interface AuditActor {
  type: AuditActorType;
  id: string | null;
  metadata: Record<string, unknown>;
}

/**
 * The caller of an authenticated request as its event names it (Infisical's identity actor:
 * name, auth method, identity id and the permission snapshot, empty here; for a token an OIDC
 * login issued with a claimMetadataMapping, the mapped claims as `oidc.claims`, recording
 * 2026-06-more/069: read with the token on authentication, parsed only here). `db` is the unit of
 * work's (the lookup runs in the request's transaction). One function, so that what an actor
 * carries is decided in one place.
 */
const identityName = preparedQuery(["identityId"], (db, { identityId }) =>
  db.selectFrom("identities").select("name").where("id", "=", identityId),
);

export async function auditActorOf(db: Kysely<Database>, actor: Actor): Promise<AuditActor> {
  const [identity] = await identityName(db, { identityId: actor.identityId });
  return {
    type: "identity",
    id: actor.identityId,
    metadata: {
      name: identity?.name ?? null,
      ...(actor.claimMetadata && { oidc: { claims: JSON.parse(actor.claimMetadata) as Record<string, string> } }),
      authMethod: actor.authMethod,
      identityId: actor.identityId,
      permission: { metadata: {} },
    },
  };
}

/** How Infisical classifies a User-Agent header (its clients send fixed names; browsers say Mozilla). */
export function userAgentTypeOf(userAgent: string | undefined): UserAgentType {
  if (userAgent === undefined) return "other";
  if (userAgent === "cli" || userAgent === "k8-operator" || userAgent === "terraform") return userAgent;
  if (userAgent.toLowerCase().includes("mozilla")) return "web";
  if (userAgent.includes("InfisicalPythonSDK")) return "InfisicalPythonSDK";
  if (userAgent.includes("InfisicalNodeSDK")) return "InfisicalNodeSDK";
  return "other";
}
