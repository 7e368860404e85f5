import { ErrorBodySchema } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { toErrorBody } from "./error-handler.ts";

describeEachDatabase("error envelope", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind });
  });
  afterAll(async () => svc?.close());

  const createUrl = "/api/v1/identities";

  it("answers unknown routes with Infisical's route-not-found body", async () => {
    const res = await svc.call("GET", "/api/v1/nothing-here?x=1");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: "Route GET:/api/v1/nothing-here not found",
      error: "Not Found",
      statusCode: 404,
    });
  });

  it("answers malformed JSON with 400", async () => {
    const res = await svc.call("POST", createUrl, {
      payload: '{"name": ',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(res.body).error).toBe("BadRequest");
  });

  it("answers a non-JSON content type with 415, text/plain included", async () => {
    for (const type of ["text/plain", "application/xml"]) {
      const res = await svc.call("POST", createUrl, { payload: "name=x", headers: { "content-type": type } });
      expect(res.status, type).toBe(415);
      expect(ErrorBodySchema.parse(res.body).error).toBe("UnsupportedMediaType");
    }
  });

  it("answers prototype poisoning with 400 and leaves Object.prototype alone", async () => {
    for (const payload of ['{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"isAdmin":true}}}']) {
      const res = await svc.call("POST", createUrl, { payload, headers: { "content-type": "application/json" } });
      expect(res.status).toBe(400);
      expect(ErrorBodySchema.parse(res.body).error).toBe("BadRequest");
    }
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it("answers a body over the limit with 413", async () => {
    const payload = JSON.stringify({ name: "x".repeat(1024 * 1024 + 10), organizationId: svc.info.orgId });
    const res = await svc.call("POST", createUrl, { payload, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(ErrorBodySchema.parse(res.body)).toMatchObject({ statusCode: 413, error: "PayloadTooLarge" });
  });

  it("uses the request id of the log line in the body", async () => {
    const res = await svc.call("GET", "/api/v1/identities/00000000-0000-4000-8000-000000000009");
    const { reqId } = ErrorBodySchema.parse(res.body);
    expect(svc.logs()).toContain(`"reqId":"${reqId}"`);
  });
});

describe("error mapping", () => {
  it("turns unexpected errors into a 500 that leaks nothing", () => {
    const mapped = toErrorBody(new Error("connection to db-internal:5432 refused"), "req-abcdefghijklmn");
    expect(mapped.statusCode).toBe(500);
    expect(mapped.internal).toBe(true);
    expect(mapped.body).toEqual({
      reqId: "req-abcdefghijklmn",
      statusCode: 500,
      message: "Something went wrong",
      error: "InternalServerError",
    });
  });
});
