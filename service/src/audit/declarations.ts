import type { AnyEndpoint, AuditActorType, AuditEventType, EndpointId, Endpoints } from "@keyhold/contract";
import type { Kysely } from "kysely";
import type { z } from "zod";
import type { Actor } from "../domain/access-tokens.ts";
import type { Database } from "../db/schema.ts";
import { auditLogEvents } from "./events-audit-log.ts";
import { authMethodEvents } from "./events-auth-methods.ts";
import { identityEvents } from "./events-identities.ts";
import { pitEvents } from "./events-pit.ts";
import { projectEvents } from "./events-projects.ts";
import { secretEvents } from "./events-secrets.ts";

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

/**
 * Which event each endpoint of the contract produces: the one place the audit hook reads
 * (service/src/routes/contract-routes.ts). The entries live beside each other by area; the type
 * makes a missing endpoint a compile error and declarations.test.ts names it at run time.
 */
export const auditEventTable: AuditEventTable = {
  ...identityEvents,
  ...authMethodEvents,
  ...projectEvents,
  ...secretEvents,
  ...pitEvents,
  ...auditLogEvents,
};

export function declarationOf(id: EndpointId): Declaration<Schemas> {
  const declaration = (auditEventTable as Partial<Record<EndpointId, Declaration<Schemas>>>)[id];
  if (!declaration) throw new Error(`The endpoint ${id} declares no audit event (service/src/audit/declarations.ts)`);
  return declaration;
}
