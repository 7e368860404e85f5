import {
  type AnyEndpoint,
  type BodyOf,
  bffPaths,
  ClientAddressSchema,
  type DryRunLoginResult,
  endpoints,
} from "@keyhold/contract";
import type { z } from "zod";
import { type CallInput, call, request } from "@/lib/api-client";
import { isApiError } from "@/lib/api-error";
import { type AuthMethodConfig, type AuthMethodDescriptor, type AuthMethodRecord, fieldsOf } from "./descriptor";

type Body = Record<string, unknown>;

function send(endpoint: AnyEndpoint, identityId: string, body?: Body, signal?: AbortSignal) {
  // The descriptor's endpoints are typed as any endpoint; the form's schema validated the body.
  const input = { params: { identityId }, body } as unknown as CallInput<AnyEndpoint>;
  return call(endpoint, input, { signal }) as Promise<Record<string, unknown>>;
}

/** Unwraps the envelope and drops write-only values: the console keeps only whether each is set. */
function toConfig(descriptor: AuthMethodDescriptor, response: Record<string, unknown>): AuthMethodConfig {
  const record = { ...(response[descriptor.envelope] as AuthMethodRecord) };
  const secretsSet: string[] = [];
  for (const field of fieldsOf(descriptor)) {
    if (field.kind !== "secret") continue;
    if (record[field.name]) secretsSet.push(field.name);
    delete record[field.name];
  }
  return { record, secretsSet };
}

/** Typed calls for any auth method, driven by its descriptor. */
export const authMethodsApi = {
  /** The method's configuration, or null when it is not attached (404; older servers answer 400). */
  get: async (descriptor: AuthMethodDescriptor, identityId: string, signal?: AbortSignal) => {
    try {
      return toConfig(descriptor, await send(descriptor.endpoints.get, identityId, undefined, signal));
    } catch (error) {
      if (isApiError(error, 404) || isApiError(error, 400)) return null;
      throw error;
    }
  },
  attach: async (descriptor: AuthMethodDescriptor, identityId: string, body: Body) =>
    toConfig(descriptor, await send(descriptor.endpoints.attach, identityId, body)),
  update: async (descriptor: AuthMethodDescriptor, identityId: string, body: Body) =>
    toConfig(descriptor, await send(descriptor.endpoints.update, identityId, body)),
  revoke: async (descriptor: AuthMethodDescriptor, identityId: string) =>
    toConfig(descriptor, await send(descriptor.endpoints.revoke, identityId)),

  /** Lifts universal auth's lockouts after failed logins; answers how many were cleared. */
  clearLockouts: async (identityId: string) =>
    (await call(endpoints["universalAuth.clearLockouts"], { params: { identityId } })).deleted,

  createToken: async (identityId: string, body: BodyOf<(typeof endpoints)["tokenAuth.createToken"]>) =>
    call(endpoints["tokenAuth.createToken"], { params: { identityId }, body }),

  /**
   * The real login against unsaved settings, issuing no token. Each setting goes only when the
   * endpoint takes it as it stands (a half-typed URL is left out and the stored one applies).
   */
  dryRunLogin: async (
    endpoint: AnyEndpoint,
    identityId: string,
    settings: Body,
    credential: Record<string, string>,
  ): Promise<DryRunLoginResult> => {
    const shape = (endpoint.body as z.ZodObject<{ settings: z.ZodObject }> | undefined)?.shape.settings.shape ?? {};
    const sent = Object.fromEntries(
      Object.entries(settings).filter(([name, value]) => shape[name]?.safeParse(value).success),
    );
    const answer = await send(endpoint, identityId, { settings: sent, ...credential });
    return (answer as { dryRun: DryRunLoginResult }).dryRun;
  },

  /** The address the service sees for this browser (through the BFF) and how the BFF read it. */
  clientAddress: (signal?: AbortSignal) =>
    request({ method: "GET", url: bffPaths.clientAddress, schema: ClientAddressSchema, signal }),
};
