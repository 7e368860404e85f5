import { type HandlerMap, notImplemented } from "./handler-types.ts";

type StreamEndpointId = Extract<keyof HandlerMap, `auditLogStreams.${string}`>;

/** Audit log streams, on both generations of Infisical's routes. */
export function auditStreamHandlers(): Pick<HandlerMap, StreamEndpointId> {
  return {
    "auditLogStreams.options": notImplemented,
    "auditLogStreams.list": notImplemented,
    "auditLogStreams.status": notImplemented,
    "auditLogStreams.create": notImplemented,
    "auditLogStreams.get": notImplemented,
    "auditLogStreams.update": notImplemented,
    "auditLogStreams.delete": notImplemented,
    "auditLogStreams.test": notImplemented,
    "auditLogStreams.createLegacy": notImplemented,
    "auditLogStreams.getLegacy": notImplemented,
    "auditLogStreams.updateLegacy": notImplemented,
    "auditLogStreams.deleteLegacy": notImplemented,
  };
}
