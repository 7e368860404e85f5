import {
  buildPath,
  type Endpoint,
  type EndpointId,
  endpoints,
  type ServerFeature as ServerFeatureView,
} from "@keyhold/contract";
import type { Readable } from "node:stream";
import { contractRevision } from "@keyhold/contract/revision";
import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import { badGateway } from "../errors.ts";
import type { Upstream, UpstreamResponse } from "../upstream/client.ts";
import { isRouteNotFound, isUserSessionOnly, normaliseError } from "./errors.ts";
import {
  type DerivedRoute,
  derivedRoutes,
  endpointFeatures,
  identityRefusedRoutes,
  type ListThenRead,
  type OlderRoute,
  olderRoutes,
  type RequiredField,
  requiredFields,
  type SessionOnlyFallback,
  sessionOnlyFallbacks,
  auditLogLists,
  type UpsertSplit,
  upsertSplits,
} from "./routes.ts";
import { recordRules, type ServerFeature, serverFeatures } from "./rules.ts";
import { newEvidence, normalise, onShapedAnswer, type ShapedAnswerEffect } from "./walk.ts";

type BatchItem = Record<string, unknown> & { secretKey?: unknown; newSecretName?: unknown; type?: unknown };

export interface CompatCall {
  endpoint: Endpoint;
  params: Record<string, unknown>;
  search: string;
  body: unknown;
  /** The session's bearer token; undefined for sign-in and renewal, which carry credentials in the body. */
  accessToken: string | undefined;
  /** The browser's address (the BFF's request.ip), which the upstream receives as X-Forwarded-For. */
  clientIp: string;
  reqId: string;
  /** The session's organisation, for operations an older server answers through an org-wide read. */
  orgId?: string | undefined;
}

/**
 * An upstream answer in the console's shape: `json` parsed, `text` ready to send. An answer for
 * `forward` that needs nothing done is not parsed (`json` is undefined), and a long one comes as a
 * `stream` of its bytes instead of `text`.
 */
export interface CompatAnswer {
  status: number;
  text: string;
  json: unknown;
  stream?: Readable;
  /** The streamed answer's length in bytes, when known. */
  length?: number | undefined;
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length ? issue.path.join(".") : "(the body)";
  return `${path} (${issue.message})`;
}

function lacks(body: unknown, required: RequiredField): body is Record<string, unknown> {
  return (
    typeof body === "object" && body !== null && !Array.isArray(body) && required.lacks(body as Record<string, unknown>)
  );
}

/**
 * Whether an answer refuses a call because the field is missing (a validation failure naming it,
 * in the body or in one of its items).
 */
function refusedFor(response: UpstreamResponse, field: string): boolean {
  if (response.status < 400 || response.status >= 500) return false;
  const message = (parseJson(response.text) as { message?: unknown } | undefined)?.message;
  return (
    Array.isArray(message) &&
    message.some(
      (issue) =>
        Array.isArray((issue as { path?: unknown }).path) && (issue as { path: unknown[] }).path.at(-1) === field,
    )
  );
}

/**
 * The one place where differences between server versions are handled: it reads every upstream
 * answer tolerantly (older records are brought to the contract's current shape, unknown fields
 * pass through), brings every error body to one envelope, takes an older route when a newer one
 * does not exist, and remembers what this upstream lacks. Nothing else in the BFF or the
 * console checks which server it talks to.
 */
export class UpstreamCompat {
  readonly #upstream: Upstream;
  readonly #features = new Map<ServerFeature, boolean>();
  /** Endpoints for which this upstream has been seen to lack the contract path (older or derived). */
  readonly #useOlder = new Set<EndpointId>();
  /** Endpoints whose upsert mode this upstream has been seen to ignore (see `upsertSplits`). */
  readonly #splitUpsert = new Set<EndpointId>();
  /** This BFF's contract revision: an answer shaped by it is already in the console's shape. */
  readonly #revision = contractRevision();
  /** Whether this upstream's plan has been read for audit logs (once: see `#checkAuditPlan`). */
  #auditPlanRead = false;
  /** What normalising such an answer would do, per endpoint (see `onShapedAnswer`). */
  readonly #shaped = new Map<Endpoint, ShapedAnswerEffect>();

  constructor(upstream: Upstream) {
    this.#upstream = upstream;
  }

  /**
   * The call for the browser: as `call`, except that a successful answer which a service of this
   * BFF's contract revision shaped, to an endpoint where normalising would leave such an answer
   * as it is, comes back unread (the bytes the browser would get anyway), with the features it
   * proves present recorded. Every other answer is read as `call` reads it.
   */
  forward(call: CompatCall, log: FastifyBaseLogger): Promise<CompatAnswer> {
    // Only the call on the contract path as it is passes an answer through (see `call`).
    return this.call(call, log, !this.#effectOf(call.endpoint).changes);
  }

  #effectOf(endpoint: Endpoint): ShapedAnswerEffect {
    let effect = this.#shaped.get(endpoint);
    if (!effect) {
      effect = onShapedAnswer(endpoint.response, recordRules);
      this.#shaped.set(endpoint, effect);
    }
    return effect;
  }

  /** Every feature the console adapts to, as last seen on this upstream (present until disproved). */
  features(): ServerFeatureView[] {
    return (Object.keys(serverFeatures) as ServerFeature[]).map((name) =>
      this.#features.get(name) === false
        ? { name, available: false, reason: serverFeatures[name] }
        : { name, available: true },
    );
  }

  async call(call: CompatCall, log: FastifyBaseLogger, passThrough = false): Promise<CompatAnswer> {
    const split = upsertSplits[call.endpoint.id as EndpointId];
    const body = call.body;
    if (!split || typeof body !== "object" || body === null || !split.isUpsert(body as Record<string, unknown>)) {
      return this.#callOnce(call, log, passThrough);
    }
    const id = call.endpoint.id as EndpointId;
    if (this.#splitUpsert.has(id)) return this.#callSplit(call, split, log);
    // Only the status is read here: a successful answer may pass through unread, as any other.
    const answer = await this.#callOnce(call, log, passThrough);
    // A 404 may be the server's own (no such folder): the split decides, from the folder's keys.
    if (answer.status !== 404) return answer;
    return this.#callSplit(call, split, log, answer);
  }

  async #callOnce(call: CompatCall, log: FastifyBaseLogger, passThrough = false): Promise<CompatAnswer> {
    const { endpoint } = call;
    const older = olderRoutes[endpoint.id as EndpointId];
    const derived = derivedRoutes[endpoint.id as EndpointId];
    const listed = identityRefusedRoutes[endpoint.id as EndpointId];
    const required = requiredFields[endpoint.id as EndpointId];
    if (required && lacks(call.body, required)) {
      if (this.#useOlder.has(endpoint.id as EndpointId)) return this.#callCompleted(call, required, log);
      const first = await this.#sendAsIs(call, log);
      if (!refusedFor(first, required.field)) return this.read(endpoint, first, call.reqId, log);
      log.info(
        { endpoint: endpoint.id, field: required.field },
        "upstream requires this field; sending its current value",
      );
      this.#useOlder.add(endpoint.id as EndpointId);
      return this.#callCompleted(call, required, log, first);
    }
    let response: UpstreamResponse;
    if (listed && this.#useOlder.has(endpoint.id as EndpointId)) {
      return this.#callListThenRead(call, listed, log);
    } else if (derived && this.#useOlder.has(endpoint.id as EndpointId)) {
      return this.#callDerived(call, derived, log);
    } else if (older && this.#useOlder.has(endpoint.id as EndpointId)) {
      response = await this.#callOlder(call, older, log);
    } else {
      response = await this.#sendAsIs(call, log, passThrough ? this.#revision : undefined);
      if (response.shaped) {
        for (const feature of endpointFeatures[endpoint.id as EndpointId] ?? []) this.#features.set(feature, true);
        for (const shown of this.#effectOf(endpoint).features) this.#features.set(shown as ServerFeature, true);
        const { status, text, stream, length } = response;
        return stream ? { status, text, json: undefined, stream, length } : { status, text, json: undefined };
      }
      // Only a 404 can say the route is missing; other answers are parsed once, in read().
      const routeMissing = response.status === 404 && isRouteNotFound(response.status, parseJson(response.text));
      for (const feature of endpointFeatures[endpoint.id as EndpointId] ?? [])
        this.#features.set(feature, !routeMissing);
      if (routeMissing && older) {
        log.info({ endpoint: endpoint.id, olderPath: older.path }, "upstream lacks this route; using its older path");
        this.#useOlder.add(endpoint.id as EndpointId);
        response = await this.#callOlder(call, older, log);
      } else if (routeMissing && derived) {
        log.info({ endpoint: endpoint.id, via: derived.via }, "upstream lacks this route; deriving it");
        this.#useOlder.add(endpoint.id as EndpointId);
        return this.#callDerived(call, derived, log);
      } else if (response.status === 403 && listed) {
        const answer = await this.#callListThenRead(call, listed, log);
        // A refusal of the older list too is the caller's own: the contract path's refusal stands.
        if (answer.status >= 400) return this.read(endpoint, response, call.reqId, log);
        log.info(
          { endpoint: endpoint.id, olderPath: listed.listPath },
          "upstream refuses this list to identities; using its older list",
        );
        this.#useOlder.add(endpoint.id as EndpointId);
        return answer;
      }
    }
    const fallback = sessionOnlyFallbacks[endpoint.id as EndpointId];
    if (fallback && response.status === 403 && isUserSessionOnly(response.status, parseJson(response.text))) {
      const answer = await this.#callFallback(call, fallback, log);
      if (answer) return answer;
    }
    const answer = this.read(endpoint, response, call.reqId, log);
    if (auditLogLists.has(endpoint.id as EndpointId)) await this.#checkAuditPlan(call, answer, log);
    return answer;
  }

  /** The refused org-wide call made on the per-project route; undefined when it names no project. */
  async #callFallback(
    call: CompatCall,
    fallback: SessionOnlyFallback,
    log: FastifyBaseLogger,
  ): Promise<CompatAnswer | undefined> {
    const route = fallback.route(new URLSearchParams(call.search));
    if (!route) return undefined;
    log.info(
      { endpoint: call.endpoint.id, via: fallback.via },
      "upstream lists this to users only; using the project's list",
    );
    return this.call(
      { ...call, endpoint: endpoints[fallback.via] as Endpoint, params: route.params, search: route.search },
      log,
    );
  }

  /**
   * An empty first page of audit events, or a refusal naming the plan, may mean the server's plan
   * keeps none (Infisical's free plan drops them before storing): its plan says so, where it has
   * one. A server without a plan route (Keyhold) keeps them.
   */
  async #checkAuditPlan(call: CompatCall, answer: CompatAnswer, log: FastifyBaseLogger): Promise<void> {
    const empty =
      answer.status === 200 && ((answer.json as { auditLogs?: unknown[] } | undefined)?.auditLogs ?? []).length === 0;
    const refused = answer.status >= 400 && /plan/i.test(String((answer.json as { message?: unknown })?.message ?? ""));
    if (!(empty || refused) || !call.orgId || this.#auditPlanRead) return;
    this.#auditPlanRead = true;
    const plan = await this.#send(
      { ...call, search: "", body: undefined },
      `/api/v1/organizations/${encodeURIComponent(call.orgId)}/plan`,
      log,
    );
    if (plan.status !== 200) return;
    const kept = (parseJson(plan.text) as { plan?: { auditLogs?: unknown } } | undefined)?.plan?.auditLogs;
    if (typeof kept === "boolean") {
      this.#features.set("auditLogs", kept);
      if (!kept) log.info({ endpoint: call.endpoint.id }, "upstream's plan keeps no audit logs");
    }
  }

  /** Brings one answer to the console's shape, or refuses it (502) naming what is missing. */
  read(endpoint: Endpoint, response: UpstreamResponse, reqId: string, log: FastifyBaseLogger): CompatAnswer {
    const json = parseJson(response.text);
    if (response.status >= 400) {
      const { status, body } = normaliseError(response.status, json, reqId);
      return { status, json: body, text: JSON.stringify(body) };
    }
    if (response.text === "") return { status: response.status, json: undefined, text: "" };

    const evidence = newEvidence();
    const normalised = normalise(endpoint.response, json, recordRules, evidence);
    for (const [feature, present] of evidence.features) this.#features.set(feature as ServerFeature, present);
    const checked = endpoint.response.safeParse(normalised);
    if (!checked.success) {
      const problems = checked.error.issues.slice(0, 3).map(describeIssue);
      log.warn({ endpoint: endpoint.id, problems }, "upstream answer lacks what the console needs");
      throw badGateway(
        `The secrets service answered ${endpoint.id} without what the console needs: ${problems.join("; ")}.`,
      );
    }
    if (evidence.filled.length > 0)
      log.debug({ endpoint: endpoint.id, filled: evidence.filled }, "older answer filled in");
    return {
      status: response.status,
      json: normalised,
      text: normalised === json ? response.text : JSON.stringify(normalised),
    };
  }

  /** The call on its contract path, with its own query; `passThrough` as in `UpstreamRequest`. */
  #sendAsIs(call: CompatCall, log: FastifyBaseLogger, passThrough?: string): Promise<UpstreamResponse> {
    return this.#send(call, buildPath(call.endpoint.path, call.params) + call.search, log, passThrough);
  }

  #send(
    call: CompatCall,
    pathAndQuery: string,
    log: FastifyBaseLogger,
    passThrough?: string,
  ): Promise<UpstreamResponse> {
    return this.#upstream.call(
      {
        method: call.endpoint.method,
        pathAndQuery,
        body: call.body,
        accessToken: call.accessToken,
        clientIp: call.clientIp,
        endpoint: call.endpoint.id,
        requestId: call.reqId,
        passThrough,
      },
      log,
    );
  }

  /** The answer worked out from the read older servers have; that read's own error is the caller's. */
  async #callDerived(call: CompatCall, derived: DerivedRoute, log: FastifyBaseLogger): Promise<CompatAnswer> {
    if (!call.orgId) throw badGateway(`The secrets service has no route for ${call.endpoint.id}.`);
    const via = endpoints[derived.via] as Endpoint;
    const search = `?${new URLSearchParams(derived.query(call.orgId))}`;
    const read = await this.call({ ...call, endpoint: via, params: {}, search, body: undefined }, log);
    if (read.status >= 400) return read;
    // Not read() again: the answer is made of records the read has already normalised, and
    // their filled-in fields must not count as evidence that this server has those features.
    const json = derived.answer(call.body, read.json);
    if (!call.endpoint.response.safeParse(json).success) {
      throw badGateway(`The secrets service's answer to ${via.id} could not answer ${call.endpoint.id}.`);
    }
    return { status: 200, json, text: JSON.stringify(json) };
  }

  /**
   * The call with the required field's current value added. When the caller may not read it, or
   * the read fails, the upstream's refusal (or the read's error) is the answer: nothing is guessed.
   */
  async #callCompleted(
    call: CompatCall,
    required: RequiredField,
    log: FastifyBaseLogger,
    refusal?: UpstreamResponse,
  ): Promise<CompatAnswer> {
    const body = call.body as Record<string, unknown>;
    const { params, query } = required.readInput(call.params, body);
    const via = endpoints[required.read] as Endpoint;
    const search = `?${new URLSearchParams(query)}`;
    const current = await this.call({ ...call, endpoint: via, params, search, body: undefined }, log);
    if (current.status >= 400) return current;
    const completed = required.complete(body, current.json);
    if (completed === undefined) {
      if (refusal) return this.read(call.endpoint, refusal, call.reqId, log);
      // Not readable: the call goes as it is, and the server says what it lacks.
      return this.read(call.endpoint, await this.#sendAsIs(call, log), call.reqId, log);
    }
    const response = await this.#sendAsIs({ ...call, body: completed }, log);
    return this.read(call.endpoint, response, call.reqId, log);
  }

  /**
   * An upsert as a create of the folder's missing keys and an update of the others (see
   * `UpsertSplit`): three requests (the list, the create, the update), one fewer when either
   * part is empty. `refusal` is the upsert's own 404, which stands when no key is missing (the
   * server did not refuse the mode) or the folder cannot be listed.
   */
  async #callSplit(
    call: CompatCall,
    split: UpsertSplit,
    log: FastifyBaseLogger,
    refusal?: CompatAnswer,
  ): Promise<CompatAnswer> {
    const { mode: _mode, secrets, ...target } = call.body as Record<string, unknown> & { secrets: BatchItem[] };
    const listed = await this.call(
      {
        ...call,
        endpoint: endpoints[split.list] as Endpoint,
        params: {},
        search: `?${new URLSearchParams(split.listQuery(target))}`,
        body: undefined,
      },
      log,
    );
    if (listed.status >= 400) return refusal ?? listed;
    const existing = new Set(
      ((listed.json as { secrets?: { secretKey: string; type?: string }[] }).secrets ?? [])
        .filter((secret) => secret.type !== "personal")
        .map((secret) => secret.secretKey),
    );
    const fresh = secrets.filter((item) => !existing.has(String(item.secretKey)));
    const known = secrets.filter((item) => existing.has(String(item.secretKey)));
    if (refusal && fresh.length === 0) return refusal;
    const send = (id: EndpointId, items: BatchItem[]) =>
      this.call({ ...call, endpoint: endpoints[id] as Endpoint, body: { ...target, secrets: items } }, log);

    let created: CompatAnswer | undefined;
    if (fresh.length > 0) {
      // A missing key is created under its new name when the item renames it, as an upsert would.
      const items = fresh.map(({ newSecretName, ...item }) => ({
        ...item,
        secretKey: typeof newSecretName === "string" ? newSecretName : item.secretKey,
        secretValue: typeof item.secretValue === "string" ? item.secretValue : "",
      }));
      created = await send(split.create, items);
      if (created.status >= 400) return created;
      // The server made what the mode asks for out of two calls: it does not know the mode.
      if (!this.#splitUpsert.has(call.endpoint.id as EndpointId)) {
        log.info({ endpoint: call.endpoint.id }, "upstream ignores upsert mode; creating missing keys first");
        this.#splitUpsert.add(call.endpoint.id as EndpointId);
      }
    }
    let updated: CompatAnswer | undefined;
    if (known.length > 0) {
      updated = await send(split.update, known);
      if (updated.status >= 400) {
        if (created) {
          const undo = await send(
            split.delete,
            fresh.map((item) => ({ secretKey: item.newSecretName ?? item.secretKey, type: item.type ?? "shared" })),
          );
          if (undo.status >= 400) log.warn({ status: undo.status }, "could not delete the keys an upsert created");
        }
        return updated;
      }
    }
    // In the items' order, as one update would answer (each batch answers in its own items' order).
    const recordsOf = (answer: CompatAnswer | undefined) => [
      ...((answer?.json as { secrets?: unknown[] } | undefined)?.secrets ?? []),
    ];
    const createdRecords = recordsOf(created);
    const updatedRecords = recordsOf(updated);
    const records = secrets.map((item) =>
      existing.has(String(item.secretKey)) ? updatedRecords.shift() : createdRecords.shift(),
    );
    // Created records are read as the create answers them: filled to the update's answer here.
    const json = normalise(call.endpoint.response, { secrets: records }, recordRules, newEvidence());
    if (!call.endpoint.response.safeParse(json).success) {
      throw badGateway(`The secrets service's answers to its batch calls could not answer ${call.endpoint.id}.`);
    }
    return { status: 200, json, text: JSON.stringify(json) };
  }

  /** The list read record by record; records this caller may not read (403, 404) are left out. */
  async #callListThenRead(call: CompatCall, listed: ListThenRead, log: FastifyBaseLogger): Promise<CompatAnswer> {
    if (!call.orgId) throw badGateway(`The secrets service has no list for ${call.endpoint.id}.`);
    const list = await this.#send(call, buildPath(listed.listPath, { orgId: call.orgId }), log);
    if (list.status >= 400) return this.read(call.endpoint, list, call.reqId, log);
    const via = endpoints[listed.read] as Endpoint;
    const reads = await Promise.all(
      listed
        .ids(parseJson(list.text))
        .map((id) =>
          this.call({ ...call, endpoint: via, params: listed.readParams(id), search: "", body: undefined }, log),
        ),
    );
    const failed = reads.find((read) => read.status >= 400 && read.status !== 403 && read.status !== 404);
    if (failed) return failed;
    const json = listed.answer(reads.filter((read) => read.status < 300).map((read) => listed.pick(read.json)));
    if (!call.endpoint.response.safeParse(json).success) {
      throw badGateway(`The secrets service's answers to ${via.id} could not answer ${call.endpoint.id}.`);
    }
    return { status: 200, json, text: JSON.stringify(json) };
  }

  async #callOlder(call: CompatCall, older: OlderRoute, log: FastifyBaseLogger): Promise<UpstreamResponse> {
    const params: Record<string, unknown> = { ...call.params };
    const query = new URLSearchParams(call.search);
    for (const [name, resolver] of Object.entries(older.resolve ?? {})) {
      const via = endpoints[resolver.via] as Endpoint;
      const viaParams = resolver.params(call.params, query);
      const viaCall = { ...call, endpoint: via, params: viaParams, search: "", body: undefined };
      const answer = await this.call(viaCall, log);
      // The read's own error (404, 403…) is the caller's answer too.
      if (answer.status >= 400) return { status: answer.status, text: answer.text };
      const value = resolver.pick(answer.json);
      if (typeof value !== "string" || value === "") {
        throw badGateway(`The secrets service's answer to ${via.id} did not give the ${name} this server needs.`);
      }
      params[name] = value;
    }
    let body = call.body;
    if (older.body) {
      let current: unknown;
      if (older.current?.needed(call.body)) {
        // Read raw: what it holds (a credential in clear) fills the body here and goes no further.
        const via = endpoints[older.current.via] as Endpoint;
        const read = await this.#send({ ...call, endpoint: via, body: undefined }, buildPath(via.path, params), log);
        if (read.status >= 400) return read;
        current = parseJson(read.text);
      }
      body = older.body(call.body, current);
    }
    const search = older.query ? `?${older.query(query, params)}` : call.search;
    const response = await this.#send({ ...call, body }, buildPath(older.path, params) + search, log);
    if (!older.answer || response.status >= 300 || response.text === "") return response;
    return { status: response.status, text: JSON.stringify(older.answer(parseJson(response.text))) };
  }
}
