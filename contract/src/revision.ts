import { createHash } from "node:crypto";
import { z } from "zod";
import type { AnyEndpoint } from "./endpoint.ts";
import { endpointList } from "./index.ts";

/**
 * On a service's successful answer to a contract endpoint: the revision of the contract whose
 * response schema shaped it (`contractRevision`). A BFF built from the same revision knows the
 * answer is already in the console's shape, so it passes the bytes on without reading them;
 * any other upstream (an Infisical server, a service of another revision) is read and
 * normalised as before.
 */
export const CONTRACT_REVISION_HEADER = "keyhold-contract";

/**
 * A digest of every endpoint's response schema (as JSON Schema of its output), so that two
 * builds agree exactly when every answer has the same shape for both.
 */
export function revisionOf(list: readonly AnyEndpoint[]): string {
  const hash = createHash("sha256");
  for (const endpoint of list) {
    const schema = z.toJSONSchema(endpoint.response, { io: "output", unrepresentable: "any" });
    hash.update(`${endpoint.id}\n${JSON.stringify(schema)}\n`);
  }
  return hash.digest("base64url").slice(0, 22);
}

let revision: string | undefined;

/** This build's revision (`revisionOf` the contract), worked out once per process on first use (some tens of milliseconds). */
export function contractRevision(): string {
  revision ??= revisionOf(endpointList);
  return revision;
}
