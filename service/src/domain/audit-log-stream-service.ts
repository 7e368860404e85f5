import { randomUUID } from "node:crypto";
import {
  AUDIT_LOG_STREAM_PROVIDERS,
  AUDIT_STREAM_PING,
  type AuditLogStream,
  type AuditLogStreamStatus,
  type Endpoints,
  MASKED_HEADER_VALUE,
  type StreamHeader,
} from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { openHeaders, sealedHeadersColumn } from "../audit/stream-delivery.ts";
import { postToReceiver, type ReceiverOutcome } from "../audit/stream-http.ts";
import { testEvent } from "../audit/stream-payloads.ts";
import {
  type AuditLogStreamRow,
  countEventsAfter,
  countStreams,
  deleteStream,
  findStream,
  insertStream,
  lastEventSeq,
  listStreams,
  updateStream,
} from "../data/audit-log-streams.ts";
import type { Database } from "../db/schema.ts";
import type { Sealer } from "../lib/sealing.ts";
import { nowIso } from "../lib/time.ts";
import type { Actor } from "./access-tokens.ts";
import { toLegacyStream, toStream, toStreamStatus } from "./audit-log-stream-views.ts";
import { BadRequestError, NotFoundError } from "./errors.ts";
import { assertOrgPermission } from "./permissions.ts";

type Body<Id extends keyof Endpoints> = z.output<Endpoints[Id]["body"]>;
type Filters = Record<string, unknown> | null | undefined;

/** The provider Keyhold delivers to: an HTTP endpoint of the organisation's choosing. */
export const DELIVERED_PROVIDER = "custom";

/**
 * Streams per organisation. Infisical's plans allow 3; Keyhold has no plans, but each stream is
 * one more POST for every event and one more reader of the event table, so the fan-out of one
 * event stays bounded. Ten leaves room for a SIEM, an archive and their staging copies.
 */
export const STREAM_LIMIT = 10;

export interface AuditLogStreamServiceDeps {
  db: Kysely<Database>;
  sealer: Sealer;
  /** Wakes delivery after a stream is created or changed, so it does not wait for the next poll. */
  nudge: () => void;
}

/**
 * Audit log streams on both generations of Infisical's routes. The mid-2026 routes name the
 * provider in the path and mask header values; the October 2024 routes have no provider and
 * answer header values to the admins who set them. Both see the same streams. Every call needs
 * the organisation's `settings` (its admins), as streams carry every event out of the service.
 */
export function createAuditLogStreamService({ db, sealer, nudge }: AuditLogStreamServiceDeps) {
  const seal = (id: string, headers: readonly StreamHeader[]) =>
    sealer.seal(JSON.stringify(headers), sealedHeadersColumn(id));
  const headersOf = (row: AuditLogStreamRow) => openHeaders(sealer, row);

  function assertAdmin(actor: Actor, action: "read" | "edit" = "edit"): void {
    assertOrgPermission(actor.ability, action, "settings");
  }

  /** Pings the URL as the recorded servers do before saving (2026-06-more/117); a failure is the caller's 400. */
  async function ping(url: string, headers: readonly StreamHeader[]): Promise<void> {
    const outcome = await postToReceiver(url, headers, AUDIT_STREAM_PING);
    if (!outcome.ok) throw new BadRequestError(`Failed to connect with upstream source: ${outcome.error}`);
  }

  function assertProvider(provider: string): void {
    if (provider !== DELIVERED_PROVIDER) {
      throw new BadRequestError(
        `Keyhold delivers audit log streams to the "${DELIVERED_PROVIDER}" provider (an HTTP endpoint) only, not to "${provider}"`,
      );
    }
  }

  /**
   * Keyhold's projects are all secret-manager projects and it filters nothing else, so it takes
   * the one filter that means "everything": none, or products naming secret-manager. Anything
   * else would be a filter silently not applied.
   */
  function checkFilters(filters: Filters): void {
    if (filters === null || filters === undefined) return;
    const { products, ...rest } = filters;
    const others = Object.keys(rest);
    if (others.length > 0) {
      throw new BadRequestError(`Audit log stream filters other than products are not supported: ${others.join(", ")}`);
    }
    if (
      products !== undefined &&
      !(Array.isArray(products) && products.every((p) => typeof p === "string") && products.includes("secret-manager"))
    ) {
      throw new BadRequestError(
        'Audit log stream filter products must include "secret-manager": every Keyhold project is a secret-manager project',
      );
    }
  }

  /** A header sent back as "******" keeps the value stored under its key. */
  function resolveHeaders(sent: readonly StreamHeader[], stored: readonly StreamHeader[]): StreamHeader[] {
    return sent.map(({ key, value }) => {
      if (value !== MASKED_HEADER_VALUE) return { key, value };
      const kept = stored.find((h) => h.key.toLowerCase() === key.toLowerCase());
      if (!kept) throw new BadRequestError(`Header "${key}" has no stored value to keep; send its value`);
      return { key, value: kept.value };
    });
  }

  async function find(actor: Actor, streamId: string, provider?: string): Promise<AuditLogStreamRow> {
    const row = await findStream(db, actor.orgId, streamId);
    if (!row) {
      throw new NotFoundError(
        provider === undefined ? "Audit log stream not found" : `Audit log stream with ID '${streamId}' not found`,
      );
    }
    if (provider !== undefined && provider !== row.provider) {
      throw new BadRequestError(`Audit Log Stream with ID '${streamId}' is not for provider '${provider}'`);
    }
    return row;
  }

  async function create(
    actor: Actor,
    input: { api: "2026" | "2024"; url: string; headers: StreamHeader[]; filters: Filters },
  ): Promise<AuditLogStreamRow> {
    checkFilters(input.filters);
    if ((await countStreams(db, actor.orgId)) >= STREAM_LIMIT) {
      throw new BadRequestError(`An organisation can have at most ${STREAM_LIMIT} audit log streams`);
    }
    // The ping comes before the first write, so no transaction is held open across it.
    await ping(input.url, input.headers);
    const id = randomUUID();
    const now = nowIso();
    await insertStream(db, {
      id,
      org_id: actor.orgId,
      provider: DELIVERED_PROVIDER,
      api: input.api,
      url: input.url,
      sealed_headers: seal(id, input.headers),
      filters: input.filters ? JSON.stringify(input.filters) : null,
      // A new stream receives the events from its creation on (this request's own event first).
      cursor_seq: await lastEventSeq(db, actor.orgId),
      created_at: now,
      updated_at: now,
    });
    nudge();
    return (await findStream(db, actor.orgId, id)) as AuditLogStreamRow;
  }

  async function update(
    row: AuditLogStreamRow,
    change: { url: string; headers: StreamHeader[] } | undefined,
    rest: { filters?: Filters; api?: "2026" },
  ): Promise<AuditLogStreamRow> {
    if (change) await ping(change.url, change.headers);
    await updateStream(db, row.id, {
      ...(change && { url: change.url, sealed_headers: seal(row.id, change.headers) }),
      ...(rest.filters !== undefined && { filters: rest.filters === null ? null : JSON.stringify(rest.filters) }),
      ...(rest.api && { api: rest.api }),
      updated_at: nowIso(),
      // New settings are tried at once rather than after the backoff of the old ones.
      ...(change && { failures: 0, next_attempt_at: null }),
    });
    nudge();
    return (await findStream(db, row.org_id, row.id)) as AuditLogStreamRow;
  }

  return {
    options(actor: Actor) {
      assertAdmin(actor, "read");
      return AUDIT_LOG_STREAM_PROVIDERS.filter((p) => p.provider === DELIVERED_PROVIDER).map((p) => ({ ...p }));
    },

    async list(actor: Actor): Promise<AuditLogStream[]> {
      assertAdmin(actor, "read");
      return (await listStreams(db, actor.orgId)).map((row) => toStream(row, headersOf(row)));
    },

    async get(actor: Actor, provider: string, streamId: string): Promise<AuditLogStream> {
      assertAdmin(actor, "read");
      const row = await find(actor, streamId, provider);
      return toStream(row, headersOf(row));
    },

    async create(actor: Actor, provider: string, body: Body<"auditLogStreams.create">): Promise<AuditLogStream> {
      assertAdmin(actor);
      assertProvider(provider);
      const { url, headers } = body.credentials;
      const row = await create(actor, { api: "2026", url, headers, filters: body.filters });
      return toStream(row, headers);
    },

    async update(
      actor: Actor,
      provider: string,
      streamId: string,
      body: Body<"auditLogStreams.update">,
    ): Promise<AuditLogStream> {
      assertAdmin(actor);
      const row = await find(actor, streamId, provider);
      if (body.streamMode === "single" && row.api === "2026") {
        throw new BadRequestError("Audit Log Stream cannot be switched from batch delivery back to single delivery");
      }
      checkFilters(body.filters);
      const change = body.credentials && {
        url: body.credentials.url,
        headers: resolveHeaders(body.credentials.headers, headersOf(row)),
      };
      const updated = await update(row, change, {
        filters: body.filters,
        ...(body.streamMode === "batch" && { api: "2026" as const }),
      });
      return toStream(updated, headersOf(updated));
    },

    async delete(actor: Actor, provider: string, streamId: string): Promise<AuditLogStream> {
      assertAdmin(actor);
      const row = await find(actor, streamId, provider);
      const answer = toStream(row, headersOf(row));
      await deleteStream(db, row.id);
      return answer;
    },

    async getLegacy(actor: Actor, streamId: string) {
      assertAdmin(actor, "read");
      const row = await find(actor, streamId);
      return toLegacyStream(row, headersOf(row));
    },

    async createLegacy(actor: Actor, body: Body<"auditLogStreams.createLegacy">) {
      assertAdmin(actor);
      const row = await create(actor, { api: "2024", url: body.url, headers: body.headers ?? [], filters: null });
      return toLegacyStream(row);
    },

    /**
     * Unlike the October 2024 server, an update without `headers` keeps the stored ones (that
     * server dropped them, 2024-10-more/106): leaving a field out of a PATCH does not clear it.
     */
    async updateLegacy(actor: Actor, streamId: string, body: Body<"auditLogStreams.updateLegacy">) {
      assertAdmin(actor);
      const row = await find(actor, streamId);
      const stored = headersOf(row);
      const change = {
        url: body.url ?? row.url,
        headers: body.headers === undefined ? stored : resolveHeaders(body.headers, stored),
      };
      return toLegacyStream(await update(row, change, {}));
    },

    async deleteLegacy(actor: Actor, streamId: string) {
      assertAdmin(actor);
      const row = await find(actor, streamId);
      await deleteStream(db, row.id);
      return toLegacyStream(row);
    },

    async status(actor: Actor): Promise<AuditLogStreamStatus[]> {
      assertAdmin(actor, "read");
      const rows = await listStreams(db, actor.orgId);
      const backlogs = await Promise.all(rows.map((row) => countEventsAfter(db, row.org_id, row.cursor_seq)));
      return rows.map((row, i) => toStreamStatus(row, backlogs[i] ?? 0));
    },

    /**
     * Sends one test event now, in the stream's format, and records the outcome in its state: a
     * success also ends a backoff (the receiver is back), a failure is shown as the last error.
     */
    async test(actor: Actor, provider: string, streamId: string): Promise<ReceiverOutcome> {
      assertAdmin(actor);
      const row = await find(actor, streamId, provider);
      const identity = await db
        .selectFrom("identities")
        .select("name")
        .where("id", "=", actor.identityId)
        .executeTakeFirst();
      const event = testEvent(row.id, {
        orgId: actor.orgId,
        identityId: actor.identityId,
        name: identity?.name ?? "",
        authMethod: actor.authMethod,
      });
      const outcome = await postToReceiver(row.url, headersOf(row), row.api === "2026" ? event.batch : event.single);
      const at = nowIso();
      await updateStream(
        db,
        row.id,
        outcome.ok
          ? { last_success_at: at, failures: 0, next_attempt_at: null }
          : { last_error: `Test event: ${outcome.error}`, last_error_at: at },
      );
      if (outcome.ok) nudge();
      return outcome;
    },
  };
}

export type AuditLogStreamService = ReturnType<typeof createAuditLogStreamService>;
