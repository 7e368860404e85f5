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

/** One rule of a sign-in applied to a credential (see `@keyhold/contract/credential-rules`). */
export const CredentialCheckSchema = z.object({
  rule: z.string(),
  label: z.string(),
  outcome: z.enum(["pass", "fail", "skip"]),
  detail: z.string(),
  refusal: z.object({ statusCode: z.number().int(), message: z.string() }).optional(),
});

/**
 * What a dry-run login found: whether the peer (the OIDC provider's keys, the cluster's token
 * review, STS) vouched for the credential and what it said, every rule against the settings
 * tried, and the refusal the real login would answer. No token is issued.
 */
export const DryRunLoginResultSchema = z.object({
  dryRun: z.object({
    accepted: z.boolean(),
    peer: z.object({
      ok: z.boolean(),
      /** The peer's answer in words ("Signature verified with key k1 of https://…", "TokenReview: authenticated as …"). */
      message: z.string(),
      /** The HTTP status the peer answered with, when it answered. */
      statusCode: z.number().int().optional(),
    }),
    /** Empty when the peer refused before any rule could be applied. */
    checks: z.array(CredentialCheckSchema),
    /** What the real login would answer instead of a token. */
    refusal: z.object({ statusCode: z.number().int(), message: z.string() }).optional(),
  }),
});
export type DryRunLoginResult = z.infer<typeof DryRunLoginResultSchema>["dryRun"];

/**
 * A Keyhold addition to a peer-vouched auth method: run its login against settings a form has
 * not saved yet (each given field replaces the stored one; omitted fields, secrets included,
 * keep the stored value when the method is attached) and answer what the login would do,
 * issuing nothing. Servers without it answer 404, and the console says so.
 */
export function dryRunLoginEndpoint<const Key extends string, S extends z.ZodType, C extends z.ZodRawShape>(spec: {
  key: Key;
  name: string;
  label: string;
  settings: S;
  credential: C;
}) {
  return defineEndpoint({
    id: `${spec.key}.dryRunLogin` as `${Key}.dryRunLogin`,
    method: "POST",
    path: `/api/v1/auth/${spec.name}/identities/{identityId}/dry-run-login`,
    summary: `Try a credential against an identity's ${spec.label} settings, saved or not, without issuing a token`,
    params: IdentityIdParams,
    body: z.object({ settings: spec.settings, ...spec.credential }),
    response: DryRunLoginResultSchema,
    permission: permission("edit"),
  });
}
