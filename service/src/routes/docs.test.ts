import { endpointList } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "../test/harness.ts";

describe("status and docs", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind: "sqlite" });
  });
  afterAll(async () => svc?.close());

  it("GET /api/status answers without a token", async () => {
    const res = await svc.call("GET", "/api/status", { token: null });
    expect(res.status).toBe(200);
    const body = res.body as { date: string; message: string };
    expect(body.message).toBe("Ok");
    expect(Number.isNaN(Date.parse(body.date))).toBe(false);
  });

  it("GET /api/docs serves an OpenAPI document with every contract endpoint", async () => {
    const res = await svc.call("GET", "/api/docs", { token: null });
    expect(res.status).toBe(200);
    const doc = res.body as { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.openapi).toBe("3.1.0");
    const operationIds = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(operationIds.sort()).toEqual(endpointList.map((e) => e.id).sort());
    const get = doc.paths["/api/v1/identities/{identityId}"]?.get as unknown as {
      parameters: { name: string; in: string }[];
    };
    expect(get.parameters).toEqual([expect.objectContaining({ name: "identityId", in: "path" })]);
  });
});
