import type { AnyEndpoint, AuditActorType, AuditEventType, EndpointId, Endpoints } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import type { Actor } from "../domain/access-tokens.ts";
import type { Database } from "../db/schema.ts";

/**
 * The schemas of an endpoint without its id, so that endpoints served on two paths with the same
 * schemas (v3 and v4) share one declaration.
 */
export type EndpointSchemas<E extends AnyEndpoint> = E extends AnyEndpoint
  ? { params: E["params"]; query: E["query"]; body: E["body"]; response: E["response"] }
  : never;

type Schemas = EndpointSchemas<AnyEndpoint>;

/** What a declaration sees of a call: the contract-parsed request and who made it. */
export interface AuditInput<E extends Schemas> {
  params: z.output<E["params"]>;
  query: z.output<E["query"]>;
  body: z.output<E["body"]>;
  /** The authenticated caller; null on the sign-in endpoints. */
  actor: Actor | null;
  /** The database, inside the call's transaction (for a lookup the request does not carry). */
  db: Kysely<Database>;
}

/** The part of an event a declaration decides; the scope adds the actor, address, time and chain. */
export interface AuditEventDraft {
  /** The project the event belongs to; null for organisation events. */
  projectId: string | null;
  /** Infisical's metadata keys where it has the event. Never a value, a credential or a token. */
  metadata: Record<string, unknown>;
  /**
   * Who acted, when it is not the caller's bearer token: a sign-in names the identity that signed
   * in. The organisation is taken from `orgId` then.
   */
  actor?: { type: AuditActorType; id: string | null; orgId: string; metadata: Record<string, unknown> };
}

type Awaitable<T> = T | Promise<T>;

/** The event a successful call of an endpoint produces, and the one a failed call produces, if any. */
export interface EventDeclaration<E extends Schemas> {
  type: AuditEventType;
  event: (input: AuditInput<E> & { result: z.output<E["response"]> }) => Awaitable<AuditEventDraft | null>;
  /** A failed call's event (failed sign-ins); null from `event` records nothing for that failure. */
  failure?: {
    type: AuditEventType;
    event: (input: AuditInput<E> & { error: unknown }) => Awaitable<AuditEventDraft | null>;
  };
}

/** An endpoint that records nothing, and why (a read that returns no secret value). */
export interface NoEvent {
  none: string;
}

export type Declaration<E extends Schemas> = EventDeclaration<E> | NoEvent;

/** One entry per contract endpoint: leaving one out is a compile error (and a test failure). */
export type AuditEventTable = { [Id in EndpointId]: Declaration<EndpointSchemas<Endpoints[Id]>> };

export function declaresEvent<E extends Schemas>(declaration: Declaration<E>): declaration is EventDeclaration<E> {
  return "type" in declaration;
}

type ProjectRef = { workspaceId?: string; projectId?: string; workspaceSlug?: string; projectSlug?: string };

/** The id of the project a secrets call names by id or slug, within the caller's organisation. */
export async function projectIdOf(
  db: Kysely<Database>,
  orgId: string | undefined,
  ref: ProjectRef,
): Promise<string | null> {
  const id = ref.workspaceId ?? ref.projectId;
  const slug = ref.workspaceSlug ?? ref.projectSlug;
  if (!id && !slug) return null;
  let query = db.selectFrom("projects").select("id");
  query = id
    ? query.where((eb) => eb.or([eb("id", "=", id), eb("slug", "=", id)]))
    : query.where("slug", "=", slug as string);
  if (orgId) query = query.where("org_id", "=", orgId);
  const row = await query.executeTakeFirst();
  return row?.id ?? null;
}

type SecretWritten = { id: string; secretKey: string; version: number; workspace: string };

/** create-secret, update-secret, delete-secret: the metadata a mid-2026 server records (2026-06-more/029). */
function secretChange(
  body: { environment: string; secretPath: string },
  secret: SecretWritten,
  tags?: readonly string[],
): AuditEventDraft {
  return {
    projectId: secret.workspace,
    metadata: {
      environment: body.environment,
      secretPath: body.secretPath,
      secretId: secret.id,
      secretKey: secret.secretKey,
      secretVersion: secret.version,
      ...(tags && { secretTags: tags }),
    },
  };
}

const TO_BE_DECLARED: NoEvent = { none: "to be declared" };

const secretList: EventDeclaration<EndpointSchemas<Endpoints["secrets.list"]>> = {
  type: "get-secrets",
  event: async ({ query, actor, db, result }) => ({
    projectId: result.secrets[0]?.workspace ?? (await projectIdOf(db, actor?.orgId, query)),
    metadata: { environment: query.environment, secretPath: query.secretPath, numberOfSecrets: result.secrets.length },
  }),
};
const secretGet: EventDeclaration<EndpointSchemas<Endpoints["secrets.get"]>> = {
  type: "get-secret",
  event: ({ query, result }) => ({
    projectId: result.secret.workspace,
    metadata: {
      environment: query.environment ?? result.secret.environment,
      secretPath: query.secretPath,
      secretId: result.secret.id,
      secretKey: result.secret.secretKey,
      secretVersion: result.secret.version,
    },
  }),
};
const secretCreate: EventDeclaration<EndpointSchemas<Endpoints["secrets.create"]>> = {
  type: "create-secret",
  event: ({ body, result }) => secretChange(body, result.secret, []),
};
const secretUpdate: EventDeclaration<EndpointSchemas<Endpoints["secrets.update"]>> = {
  type: "update-secret",
  event: ({ body, result }) => secretChange(body, result.secret, []),
};
const secretDelete: EventDeclaration<EndpointSchemas<Endpoints["secrets.delete"]>> = {
  type: "delete-secret",
  event: ({ body, result }) => secretChange(body, result.secret),
};

/**
 * Which event each endpoint of the contract produces: the one place the audit hook reads
 * (service/src/routes/contract-routes.ts).
 */
export const auditEventTable = {
  "secrets.list": secretList,
  "secrets.listV4": secretList,
  "secrets.get": secretGet,
  "secrets.getV4": secretGet,
  "secrets.create": secretCreate,
  "secrets.createV4": secretCreate,
  "secrets.update": secretUpdate,
  "secrets.updateV4": secretUpdate,
  "secrets.delete": secretDelete,
  "secrets.deleteV4": secretDelete,
} satisfies Partial<AuditEventTable> as unknown as AuditEventTable;

/** Every endpoint not declared above, until each is. */
export function declarationOf(id: EndpointId): Declaration<Schemas> {
  return (auditEventTable as Partial<Record<EndpointId, Declaration<Schemas>>>)[id] ?? TO_BE_DECLARED;
}
