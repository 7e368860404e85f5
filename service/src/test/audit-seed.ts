import { createHash, randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

/** An audit event as a test writes it: what the list answers, plus where it belongs. */
export interface SeedEvent {
  id?: string;
  orgId: string;
  projectId?: string | null;
  projectName?: string | null;
  type: string;
  metadata?: Record<string, unknown>;
  actorType?: string;
  actorId?: string | null;
  actorMetadata?: Record<string, unknown>;
  ipAddress?: string | null;
  userAgent?: string | null;
  userAgentType?: string | null;
  requestId?: string | null;
  createdAt: string;
  pruned?: boolean;
}

const text = (value: unknown) => (typeof value === "string" ? value : null);

/**
 * Appends events to their organisations' chains as rows, the way the schema says (the filter
 * columns copied out of the metadata, the next `org_seq`, the chain head moved on), so that list
 * tests control every field and time. The hashes are stand-ins: these chains are not verified.
 */
export async function seedAuditEvents(db: Kysely<Database>, events: readonly SeedEvent[]): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const ids: string[] = [];
    const heads = new Map<string, number>();
    for (const event of events) {
      let seq = heads.get(event.orgId);
      if (seq === undefined) {
        const row = await trx
          .selectFrom("audit_events")
          .select((eb) => eb.fn.max("org_seq").as("last"))
          .where("org_id", "=", event.orgId)
          .executeTakeFirst();
        seq = Number(row?.last ?? 0);
      }
      seq += 1;
      heads.set(event.orgId, seq);
      const id = event.id ?? randomUUID();
      const metadata = event.metadata ?? {};
      const hash = createHash("sha256").update(`${event.orgId}:${seq}`).digest("hex");
      await trx
        .insertInto("audit_events")
        .values({
          id,
          org_id: event.orgId,
          org_seq: seq,
          project_id: event.projectId ?? null,
          project_name: event.projectName ?? null,
          event_type: event.type,
          event_metadata: JSON.stringify(metadata),
          actor_type: event.actorType ?? "identity",
          actor_id: event.actorId ?? null,
          actor_metadata: JSON.stringify(event.actorMetadata ?? {}),
          ip_address: event.ipAddress ?? null,
          user_agent: event.userAgent ?? null,
          user_agent_type: event.userAgentType ?? null,
          request_id: event.requestId ?? null,
          environment: text(metadata.environment),
          secret_path: text(metadata.secretPath),
          secret_key: text(metadata.secretKey),
          created_at: event.createdAt,
          content_hash: hash,
          hash,
          pruned: event.pruned ? 1 : 0,
        })
        .execute();
      ids.push(id);
    }
    for (const [orgId, lastSeq] of heads) {
      const lastHash = createHash("sha256").update(`${orgId}:${lastSeq}`).digest("hex");
      const now = new Date().toISOString();
      await trx
        .insertInto("audit_chain_heads")
        .values({ org_id: orgId, last_seq: lastSeq, last_hash: lastHash, updated_at: now })
        .onConflict((oc) =>
          oc.column("org_id").doUpdateSet({ last_seq: lastSeq, last_hash: lastHash, updated_at: now }),
        )
        .execute();
    }
    return ids;
  });
}
