import type { AuditLogStreamService } from "../domain/audit-log-stream-service.ts";
import type { HandlerMap } from "./handler-types.ts";

type StreamEndpointId = Extract<keyof HandlerMap, `auditLogStreams.${string}`>;

/**
 * Audit log streams, on both generations of Infisical's routes. The list is one route for both:
 * an October 2024 client reads the mid-2026 record's id, url and dates.
 */
export function auditStreamHandlers(streams: AuditLogStreamService): Pick<HandlerMap, StreamEndpointId> {
  return {
    "auditLogStreams.options": async ({ actor }) => ({ providerOptions: streams.options(actor) }),
    "auditLogStreams.list": async ({ actor }) => ({ auditLogStreams: await streams.list(actor) }),
    "auditLogStreams.status": async ({ actor }) => ({ streams: await streams.status(actor) }),
    "auditLogStreams.create": async ({ actor, params, body }) => ({
      auditLogStream: await streams.create(actor, params.provider, body),
    }),
    "auditLogStreams.get": async ({ actor, params }) => ({
      auditLogStream: await streams.get(actor, params.provider, params.streamId),
    }),
    "auditLogStreams.update": async ({ actor, params, body }) => ({
      auditLogStream: await streams.update(actor, params.provider, params.streamId, body),
    }),
    "auditLogStreams.delete": async ({ actor, params }) => ({
      auditLogStream: await streams.delete(actor, params.provider, params.streamId),
    }),
    "auditLogStreams.test": async ({ actor, params }) => {
      const outcome = await streams.test(actor, params.provider, params.streamId);
      return { delivered: outcome.ok, status: outcome.status, error: outcome.error };
    },
    "auditLogStreams.createLegacy": async ({ actor, body }) => ({
      auditLogStream: await streams.createLegacy(actor, body),
    }),
    "auditLogStreams.getLegacy": async ({ actor, params }) => ({
      auditLogStream: await streams.getLegacy(actor, params.streamId),
    }),
    "auditLogStreams.updateLegacy": async ({ actor, params, body }) => ({
      auditLogStream: await streams.updateLegacy(actor, params.streamId, body),
    }),
    "auditLogStreams.deleteLegacy": async ({ actor, params }) => ({
      auditLogStream: await streams.deleteLegacy(actor, params.streamId),
    }),
  };
}
