import { requestIdFrom } from "@keyhold/contract/runtime-config";
import type { FastifyInstance, FastifyServerOptions } from "fastify";

/**
 * Each request's id (logged as `reqId`, returned in error bodies and sent to the upstream as
 * X-Request-Id, so one id follows a request through the BFF's and the service's logs): the
 * X-Request-Id the caller sent when it is a plausible id, otherwise a new one. It is returned in
 * the X-Request-Id response header.
 */
export const requestIdOptions = {
  requestIdHeader: false,
  genReqId: (request) => requestIdFrom(request.headers["x-request-id"]),
} satisfies Pick<FastifyServerOptions, "requestIdHeader" | "genReqId">;

export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
}
