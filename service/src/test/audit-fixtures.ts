import { buildPath, type EndpointId, endpoints } from "@keyhold/contract";
import { loadRecordings, sampleDir } from "@keyhold/fixtures";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { expect } from "vitest";
import { auditEventTable, declaresEvent } from "../audit/declarations.ts";
import type { EndpointInput, TestService } from "./harness.ts";
import { type LoopbackPeer, startLoopbackPeer } from "./loopback.ts";
import { GET_CALLER_IDENTITY, verifySigV4 } from "./sigv4.ts";

/** One stored audit event, its JSON columns parsed. */
export interface StoredEvent {
  id: string;
  orgSeq: number;
  type: string;
  projectId: string | null;
  actorType: string | null;
  actorId: string | null;
  actor: Record<string, unknown>;
  metadata: Record<string, unknown>;
  requestId: string | null;
  environment: string | null;
  secretPath: string | null;
  secretKey: string | null;
}

export async function eventsOfRequest(svc: TestService, requestId: string): Promise<StoredEvent[]> {
  const rows = await svc.app.db
    .selectFrom("audit_events")
    .selectAll()
    .where("request_id", "=", requestId)
    .orderBy("org_seq")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    orgSeq: Number(row.org_seq),
    type: row.event_type ?? "",
    projectId: row.project_id,
    actorType: row.actor_type,
    actorId: row.actor_id,
    actor: JSON.parse(row.actor_metadata ?? "{}") as Record<string, unknown>,
    metadata: JSON.parse(row.event_metadata ?? "{}") as Record<string, unknown>,
    requestId: row.request_id,
    environment: row.environment,
    secretPath: row.secret_path,
    secretKey: row.secret_key,
  }));
}

/** Every stored audit event row, as text (every column). */
export async function everyEventAsText(svc: TestService): Promise<string[]> {
  const rows = await svc.app.db.selectFrom("audit_events").selectAll().execute();
  return rows.map((row) => JSON.stringify(row));
}

/** Who an event should name: an identity by token (authMethod), or one signing in (no authMethod). */
export interface ExpectedActor {
  identityId: string;
  name: string;
  authMethod?: string;
}

/** Where an event should say it happened; a key left out is not checked. */
export interface ExpectedPlace {
  projectId?: string | null;
  environment?: string | null;
  secretPath?: string | null;
  secretKey?: string | null;
}

export interface Outcome {
  status: number;
  body: unknown;
  requestId: string;
  /** The event the call stored; undefined for an endpoint that declares none (or is not served). */
  event: StoredEvent | undefined;
}

/**
 * Calls an endpoint through the real HTTP stack and checks what its declaration says it records:
 * exactly one event with the request's id (from the answer's X-Request-Id) of the declared type
 * (the failure type for a refused call), naming the actor and the place; none for an endpoint that
 * declares none. Remembers which endpoints were driven and how.
 */
export function auditCaller(svc: () => TestService, admin: () => ExpectedActor) {
  const driven = new Map<EndpointId, "event" | "none" | "not served">();

  async function call(
    id: EndpointId,
    input: EndpointInput = {},
    options: { token?: string | null; status?: number; as?: ExpectedActor; where?: ExpectedPlace } = {},
  ): Promise<Outcome> {
    const spec = endpoints[id];
    const token = options.token === undefined ? svc().adminToken : options.token;
    const query = input.query ? `?${new URLSearchParams(input.query)}` : "";
    const response = await svc().app.inject({
      method: spec.method,
      url: buildPath(spec.path, input.params ?? {}) + query,
      headers: { ...(token !== null && { authorization: `Bearer ${token}` }), "user-agent": "audit-events-test" },
      ...(input.body !== undefined && { payload: input.body as object }),
    });
    const body: unknown = response.body ? JSON.parse(response.body) : undefined;
    const requestId = String(response.headers["x-request-id"]);
    if (response.statusCode === 501) {
      driven.set(id, "not served");
      return { status: 501, body, requestId, event: undefined };
    }
    expect(response.statusCode, `${id}: ${response.body}`).toBe(options.status ?? 200);
    const events = await eventsOfRequest(svc(), requestId);
    const declaration = auditEventTable[id] as Parameters<typeof declaresEvent>[0];
    if (!declaresEvent(declaration)) {
      expect(events, `${id} declares no event`).toEqual([]);
      driven.set(id, "none");
      return { status: response.statusCode, body, requestId, event: undefined };
    }
    const failed = response.statusCode >= 400;
    const type = failed ? declaration.failure?.type : declaration.type;
    expect(
      events.map((e) => e.type),
      `${id}: the events of request ${requestId}`,
    ).toEqual([type]);
    const event = events[0] as StoredEvent;
    expect(event.requestId).toBe(requestId);
    const actor = options.as ?? admin();
    expect(event.actorType, id).toBe("identity");
    expect(event.actorId, id).toBe(actor.identityId);
    expect(event.actor, id).toMatchObject({ identityId: actor.identityId, name: actor.name });
    if (actor.authMethod) expect(event.actor.authMethod, id).toBe(actor.authMethod);
    else expect(event.actor, `${id}: a sign-in names no bearer token`).not.toHaveProperty("authMethod");
    for (const [key, value] of Object.entries(options.where ?? {})) {
      expect(event[key as keyof ExpectedPlace], `${id}: ${key}`).toBe(value);
    }
    if (!failed) driven.set(id, "event");
    return { status: response.statusCode, body, requestId, event };
  }

  return { call, driven };
}

/** An OIDC issuer on loopback: its discovery document, its key set and a signer of tokens. */
export async function startOidcIssuer() {
  const keys = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: "audit-key", alg: "RS256", use: "sig" };
  const peer: LoopbackPeer = await startLoopbackPeer((request) => {
    if (request.url === "/.well-known/openid-configuration") {
      return { body: { issuer: peer.url, jwks_uri: `${peer.url}/keys` } };
    }
    if (request.url === "/keys") return { body: { keys: [jwk] } };
    return { status: 404, body: { error: "not found" } };
  });
  return {
    peer,
    sign: (claims: JWTPayload) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: "audit-key" })
        .setIssuer(peer.url)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(keys.privateKey),
  };
}

/** A Kubernetes API on loopback that authenticates one service account token. */
export function startCluster(goodToken: string) {
  return startLoopbackPeer((request) => {
    const token = (JSON.parse(request.body) as { spec: { token: string } }).spec.token;
    return token === goodToken
      ? {
          status: 201,
          body: {
            status: { authenticated: true, user: { username: "system:serviceaccount:payments:deployer" } },
          },
        }
      : { status: 201, body: { status: { authenticated: false } } };
  });
}

/** An STS endpoint on loopback that knows one access key. */
export function startSts(accessKeyId: string, secret: string) {
  return startLoopbackPeer((request) => {
    const known =
      request.body === GET_CALLER_IDENTITY && verifySigV4(request, (key) => (key === accessKeyId ? secret : undefined));
    if (!known) {
      return {
        status: 403,
        body: "<ErrorResponse><Error><Code>SignatureDoesNotMatch</Code><Message>no</Message></Error></ErrorResponse>",
      };
    }
    return {
      body: `<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>arn:aws:iam::111122223333:user/deployer</Arn><UserId>AIDA</UserId><Account>111122223333</Account></GetCallerIdentityResult></GetCallerIdentityResponse>`,
    };
  });
}

/** The metadata keys of every event type in the mid-2026 recordings of audit log lists and streams. */
export function recordedMetadataKeys(): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  const add = (type: unknown, metadata: unknown) => {
    if (typeof type !== "string" || !metadata || typeof metadata !== "object") return;
    const set = keys.get(type) ?? new Set<string>();
    for (const key of Object.keys(metadata)) set.add(key);
    keys.set(type, set);
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node && typeof node === "object") {
      const record = node as Record<string, unknown>;
      const event = record.event as { type?: unknown; metadata?: unknown } | undefined;
      if (event && typeof event === "object") add(event.type, event.metadata);
      if ("eventType" in record) add(record.eventType, record.eventMetadata);
      for (const value of Object.values(record)) walk(value);
    }
  };
  for (const recording of loadRecordings(sampleDir(2026, "more"))) walk([recording.body, recording.request.body]);
  return keys;
}
