import { randomUUID } from "node:crypto";
import type { EndpointId } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { Dialect } from "../db/database.ts";
import type { Database } from "../db/schema.ts";
import type { Actor } from "../domain/access-tokens.ts";
import { nowIso } from "../lib/time.ts";
import { type AuditActor, auditActorOf, userAgentTypeOf } from "./actor.ts";
import { appendEvent, type ChainKeys, canonicalJson } from "./chain.ts";
import { auditEventsCommitted } from "./committed.ts";
import { type AuditEventDraft, declarationOf, declaresEvent } from "./declarations.ts";
import { UnitOfWork } from "./unit-of-work.ts";

/** A contract call as the audit scope sees it: the parsed request, the caller, where it came from. */
export interface AuditedCall {
  endpointId: EndpointId;
  params: unknown;
  query: unknown;
  body: unknown;
  actor: Actor | null;
  request: { id: string; ip: string; userAgent: string | undefined };
}

export interface AuditScopeDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  keys: ChainKeys;
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/**
 * Runs every contract handler in a unit of work and writes the event its endpoint declares
 * (service/src/audit/declarations.ts) in the same transaction, before the answer leaves:
 * - success: the declaration's event from the handler's answer, then one commit;
 * - failure: what the handler's services committed still commits (a lockout counter), with the
 *   declaration's failure event if it has one (a failed sign-in), and the error is answered;
 * - the event cannot be written: everything rolls back and the request fails (500). Nothing is
 *   acknowledged without its event.
 */
export function createAuditScope(deps: AuditScopeDeps) {
  const { db, dialect, keys } = deps;

  async function write(
    call: AuditedCall,
    type: string,
    draft: AuditEventDraft,
    caller: AuditActor | undefined,
  ): Promise<void> {
    const orgId = draft.actor?.orgId ?? call.actor?.orgId;
    // Read again, in the transaction, when the early read has not come back: waiting for it could
    // wait for the connection this unit holds (SQLite has one).
    const actor = draft.actor ?? caller ?? (call.actor ? await auditActorOf(db, call.actor) : undefined);
    if (!actor || !orgId) throw new Error(`The ${type} event of ${call.endpointId} names no actor`);
    const { metadata } = draft;
    await appendEvent(db, dialect, keys, {
      id: randomUUID(),
      org_id: orgId,
      project_id: draft.projectId,
      event_type: type,
      event_metadata: canonicalJson(metadata),
      actor_type: actor.type,
      actor_id: actor.id,
      actor_metadata: canonicalJson(actor.metadata),
      ip_address: call.request.ip,
      user_agent: call.request.userAgent ?? null,
      user_agent_type: userAgentTypeOf(call.request.userAgent),
      request_id: call.request.id,
      environment: text(metadata.environment),
      secret_path: text(metadata.secretPath),
      secret_key: text(metadata.secretKey),
      created_at: nowIso(),
    });
  }

  return {
    /** Runs `handler` (which returns the answer as it will be sent) for `call`, recording its event. */
    async run<T>(call: AuditedCall, handler: () => Promise<T>): Promise<T> {
      const declaration = declarationOf(call.endpointId);
      // An endpoint that records nothing writes nothing (every change declares its event): it runs
      // as it would without the audit log, on the pool.
      if (!declaresEvent(declaration)) return handler();
      const unit = new UnitOfWork();
      // Who the caller is, read beside the handler's own reads (before it writes, on the pool).
      let caller: AuditActor | undefined;
      if (call.actor) {
        const actor = call.actor;
        unit
          .run(() => auditActorOf(db, actor))
          .then(
            (found) => {
              caller = found;
            },
            // Not lost: `write` reads the caller again, in the transaction, when this read failed.
            () => undefined,
          );
      }
      const outcome = await unit.run(() =>
        handler().then(
          (result) => ({ ok: true as const, result }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
      );
      const input = { params: call.params, query: call.query, body: call.body, actor: call.actor, db };
      await unit.finish(async () => {
        if (outcome.ok) {
          const draft = await declaration.event({ ...input, result: outcome.result } as never);
          if (draft) await write(call, declaration.type, draft, caller);
        } else if (declaration.failure) {
          const draft = await declaration.failure.event({ ...input, error: outcome.error } as never);
          if (draft) await write(call, declaration.failure.type, draft, caller);
        }
      });
      // Committed: stream delivery in this process sends it now rather than at its next poll.
      if (call.actor) auditEventsCommitted(call.actor.orgId);
      if (!outcome.ok) throw outcome.error;
      return outcome.result;
    },
  };
}

export type AuditScope = ReturnType<typeof createAuditScope>;
