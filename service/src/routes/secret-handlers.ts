import { type HandlerMap, notImplemented } from "./handler-types.ts";

type SecretCoreEndpointId =
  | `secrets.${"list" | "listV4" | "get" | "getV4" | "create" | "createV4" | "update" | "updateV4" | "delete" | "deleteV4"}`
  | "secretVersions.list"
  | `folders.${"create" | "list" | "get" | "update" | "delete"}`
  | `tags.${"list" | "create" | "delete"}`;

/** The handlers of raw secrets, their versions, folders and tags. */
export function secretCoreHandlers(): Pick<HandlerMap, SecretCoreEndpointId> {
  return {
    "secrets.list": notImplemented,
    "secrets.listV4": notImplemented,
    "secrets.get": notImplemented,
    "secrets.getV4": notImplemented,
    "secrets.create": notImplemented,
    "secrets.createV4": notImplemented,
    "secrets.update": notImplemented,
    "secrets.updateV4": notImplemented,
    "secrets.delete": notImplemented,
    "secrets.deleteV4": notImplemented,
    "secretVersions.list": notImplemented,
    "folders.create": notImplemented,
    "folders.list": notImplemented,
    "folders.get": notImplemented,
    "folders.update": notImplemented,
    "folders.delete": notImplemented,
    "tags.list": notImplemented,
    "tags.create": notImplemented,
    "tags.delete": notImplemented,
  };
}
