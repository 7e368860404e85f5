import { randomUUID } from "node:crypto";
import { appendEvent, canonicalJson, deriveChainKeys } from "../audit/chain.ts";
import { loadRootKey } from "../lib/root-key.ts";
import type { TestService } from "./harness.ts";

/** An audit event as a test writes it: what the list answers, plus where it belongs. */
export interface SeedEvent {
  id?: string;
  orgId: string;
  projectId?: string | null;
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
  /** Made a tombstone after it is written (as retention would, without its signature). */
  pruned?: boolean;
}

const text = (value: unknown) => (typeof value === "string" ? value : null);

/**
 * Appends events to their organisations' chains through the service's own chain writer, with
 * every field and time the test chooses (the filter columns copied out of the metadata as the
 * audit scope copies them; the project's name read by the writer), so that list tests control what
 * is stored. Answers the events' ids.
 */
export async function seedAuditEvents(svc: TestService, events: readonly SeedEvent[]): Promise<string[]> {
  const keys = deriveChainKeys(loadRootKey(svc.config));
  const db = svc.app.db;
  return db.transaction().execute(async (trx) => {
    const ids: string[] = [];
    for (const event of events) {
      const id = event.id ?? randomUUID();
      const metadata = event.metadata ?? {};
      await appendEvent(trx, svc.info.dialect, keys, {
        id,
        org_id: event.orgId,
        project_id: event.projectId ?? null,
        event_type: event.type,
        event_metadata: canonicalJson(metadata),
        actor_type: event.actorType ?? "identity",
        actor_id: event.actorId ?? null,
        actor_metadata: canonicalJson(event.actorMetadata ?? {}),
        ip_address: event.ipAddress ?? null,
        user_agent: event.userAgent ?? null,
        user_agent_type: event.userAgentType ?? null,
        request_id: event.requestId ?? null,
        environment: text(metadata.environment),
        secret_path: text(metadata.secretPath),
        secret_key: text(metadata.secretKey),
        created_at: event.createdAt,
      });
      if (event.pruned) await trx.updateTable("audit_events").set({ pruned: 1 }).where("id", "=", id).execute();
      ids.push(id);
    }
    return ids;
  });
}
