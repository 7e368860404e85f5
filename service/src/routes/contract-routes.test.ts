import { endpointList, ErrorBodySchema, routePattern } from "@keyhold/contract";
import { CONTRACT_REVISION_HEADER, contractRevision } from "@keyhold/contract/revision";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../domain/access-tokens.ts";
import { UnauthorizedError } from "../domain/errors.ts";
import { registerErrorHandling } from "../plugins/error-handler.ts";
import { registerContractRoutes } from "./contract-routes.ts";
import { type HandlerMap, notImplemented, shapedAnswer } from "./handler-types.ts";

/**
 * The route layer on its own: a handler map whose every entry is marked not implemented, behind
 * an authentication hook that accepts any bearer token. (The real service serves every endpoint,
 * so the 501 path can only be seen this way.)
 */
describe("contract routes", () => {
  const app = Fastify();
  // The one endpoint with a handler: it answers an empty list of projects.
  const implemented = "projects.list";
  beforeAll(async () => {
    app.decorateRequest("actor", null);
    registerErrorHandling(app);
    const handlers = Object.fromEntries(
      endpointList.map((e) => [
        e.id,
        e.id === implemented ? async () => shapedAnswer({ workspaces: [] }) : notImplemented,
      ]),
    ) as HandlerMap;
    registerContractRoutes(app, handlers, async (request) => {
      if (!request.headers.authorization) throw new UnauthorizedError("Token missing");
      request.actor = { kind: "identity" } as unknown as Actor;
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const endpoint = endpointList.find((e) => e.method === "GET" && e.auth !== "none");
  const url = endpoint
    ? routePattern(endpoint.path).replace(/:[A-Za-z]+/g, "00000000-0000-4000-8000-000000000000")
    : "";

  it("answers an endpoint without a handler with 501 NotImplemented, after authentication", async () => {
    expect(endpoint).toBeDefined();
    expect((await app.inject({ method: "GET", url })).statusCode).toBe(401);
    const res = await app.inject({ method: "GET", url, headers: { authorization: "Bearer x" } });
    expect(res.statusCode).toBe(501);
    expect(ErrorBodySchema.parse(res.json())).toMatchObject({ statusCode: 501, error: "NotImplemented" });
    expect(res.headers[CONTRACT_REVISION_HEADER]).toBeUndefined();
  });

  it("says which contract revision shaped a successful answer, so that a BFF of that revision passes it on", async () => {
    const list = endpointList.find((e) => e.id === implemented);
    const res = await app.inject({ method: "GET", url: list?.path ?? "", headers: { authorization: "Bearer x" } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ workspaces: [] });
    expect(res.headers[CONTRACT_REVISION_HEADER]).toBe(contractRevision());
  });
});
