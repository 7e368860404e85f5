import { type AnyEndpoint, endpointList, NoBody, routePattern, unstorableTextIssues } from "@keyhold/contract";
import { CONTRACT_REVISION_HEADER, contractRevision } from "@keyhold/contract/revision";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { AuditScope } from "../audit/scope.ts";
import { NotImplementedError, ValidationError } from "../domain/errors.ts";
import type { Actor } from "../domain/access-tokens.ts";
import type { Authenticate } from "../plugins/auth.ts";
import { type Handler, type HandlerMap, isShapedAnswer, notImplemented } from "./handler-types.ts";

/** Text no database can store (NUL, an unpaired surrogate) is refused first, wherever it sits. */
function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const unstorable = unstorableTextIssues(value);
  if (unstorable.length > 0) throw new ValidationError(unstorable);
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(result.error.issues);
  return result.data;
}

/**
 * Registers every contract endpoint in one loop. Each request is authenticated first (except on
 * the endpoints the contract marks `auth: "none"`, the sign-ins, which check the credential in
 * their body), then its params, query and body are parsed with the contract's schemas (handlers
 * see the parsed output; text no database can store is refused before any schema sees it), and
 * the handler's result is shaped by the response schema, which drops unknown keys (unless the
 * handler built it to that schema already: `shapedAnswer`). A successful answer says which
 * contract revision shaped it (CONTRACT_REVISION_HEADER), so that a BFF of the same revision
 * can pass it on without reading it.
 *
 * The handler and the shaping of its answer run in the audit scope: the event the endpoint
 * declares is written in the same transaction as the handler's changes, and the answer is sent
 * only once both are committed. (`audit` is left out only by the benchmark that measures what
 * recording costs.)
 */
export function registerContractRoutes(
  app: FastifyInstance,
  handlers: HandlerMap,
  authenticate: Authenticate,
  audit?: AuditScope,
): void {
  const revision = contractRevision();
  for (const endpoint of endpointList) {
    // The map is keyed by id, so each entry matches its endpoint; the loop sees the widest type.
    const handler = handlers[endpoint.id] as Handler<AnyEndpoint> | typeof notImplemented;
    const spec: AnyEndpoint = endpoint;
    const open = spec.auth === "none";

    app.route({
      method: spec.method,
      url: routePattern(spec.path),
      // The batches take more than the default 1 MiB (a 5,000-line import with long values).
      ...(spec.bodyLimit !== undefined && { bodyLimit: spec.bodyLimit }),
      ...(!open && { onRequest: authenticate }),
      handler: async (request, reply) => {
        if (handler === notImplemented) {
          throw new NotImplementedError(`${spec.method} ${spec.path} is not implemented by this service yet`);
        }
        const actor = request.actor;
        if (!actor && !open) throw new Error(`Route ${spec.id} ran without an authenticated actor`);
        const params = parseOrThrow(spec.params, request.params);
        const query = parseOrThrow(spec.query, request.query);
        // Endpoints without a body ignore whatever a client sends (some send `{}` on DELETE).
        const body = spec.body === NoBody ? undefined : parseOrThrow(spec.body, request.body);
        const answer = async () => {
          // The loop sees the widest handler type; `actor` is null exactly where the contract says so.
          const result = await handler({ params, query, body, actor: actor as Actor, callerIp: request.ip });
          return isShapedAnswer(result) ? result : spec.response.parse(result);
        };
        const call = {
          endpointId: endpoint.id,
          params,
          query,
          body,
          actor,
          request: { id: request.id, ip: request.ip, userAgent: request.headers["user-agent"] },
        };
        const shaped = audit ? await audit.run(call, answer) : await answer();
        reply.header(CONTRACT_REVISION_HEADER, revision);
        return shaped;
      },
    });
  }
}
