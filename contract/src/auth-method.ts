import { z } from "zod";
import { IdentityIdParams } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

/** One identity auth method as data: where it lives on the wire and the shapes it speaks. */
export interface AuthMethodWire<Key extends string, Envelope extends string, R, A, U, RV = R> {
  /** The endpoint id prefix: `tokenAuth` gives `tokenAuth.attach`, `.get`, `.update`, `.revoke`. */
  key: Key;
  /** The wire name, also the path segment: `token-auth`. */
  name: string;
  label: string;
  /** The response envelope's key: `identityTokenAuth`. */
  envelope: Envelope;
  record: R;
  /** The record as revoke answers it, where Infisical leaves fields out there (default: `record`). */
  revoked?: RV;
  attach: A;
  update: U;
}

const permission = (action: string) => ({ scope: "org" as const, subject: "identity", action });

/** The four configuration endpoints every auth method has, on Infisical's paths and envelopes. */
export function authMethodEndpoints<
  const Key extends string,
  const Envelope extends string,
  R extends z.ZodType,
  A extends z.ZodType,
  U extends z.ZodType,
  RV extends z.ZodType = R,
>(wire: AuthMethodWire<Key, Envelope, R, A, U, RV>) {
  const response = z.object({ [wire.envelope]: wire.record } as { [K in Envelope]: R });
  const revokeResponse = z.object({ [wire.envelope]: wire.revoked ?? wire.record } as { [K in Envelope]: RV });
  const path = `/api/v1/auth/${wire.name}/identities/{identityId}`;
  return [
    defineEndpoint({
      id: `${wire.key}.attach` as `${Key}.attach`,
      method: "POST",
      path,
      summary: `Attach ${wire.label} to an identity`,
      params: IdentityIdParams,
      body: wire.attach,
      response,
      permission: permission("create"),
    }),
    defineEndpoint({
      id: `${wire.key}.get` as `${Key}.get`,
      method: "GET",
      path,
      summary: `Read an identity's ${wire.label} configuration`,
      params: IdentityIdParams,
      response,
      permission: permission("read"),
    }),
    defineEndpoint({
      id: `${wire.key}.update` as `${Key}.update`,
      method: "PATCH",
      path,
      summary: `Update an identity's ${wire.label} configuration`,
      params: IdentityIdParams,
      body: wire.update,
      response,
      permission: permission("edit"),
    }),
    defineEndpoint({
      id: `${wire.key}.revoke` as `${Key}.revoke`,
      method: "DELETE",
      path,
      summary: `Remove ${wire.label} from an identity, revoking every token it issued`,
      params: IdentityIdParams,
      response: revokeResponse,
      permission: permission("edit"),
    }),
  ] as const;
}
