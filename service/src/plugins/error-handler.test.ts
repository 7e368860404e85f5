import { Worker } from "node:worker_threads";
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
    expect(ErrorBodySchema.parse(res.body)).toMatchObject({
      statusCode: 413,
      error: "PayloadTooLarge",
      message: "The request body is larger than the 1 MB limit",
    });
  });

  it("uses the request id of the log line in the body", async () => {
    const res = await svc.call("GET", "/api/v1/identities/00000000-0000-4000-8000-000000000009");
    const { reqId } = ErrorBodySchema.parse(res.body);
    expect(svc.logs()).toContain(`"reqId":"${reqId}"`);
  });
});

interface Answer {
  status: number;
  connection: string | null;
  body: unknown;
}

/**
 * PATCHes a JSON body of about `bytes` bytes `times` times with Node's fetch, from a thread of its
 * own as a real client is: on the server's thread the server cannot close the connection while
 * the body is still being sent, which would hide the failure this guards against.
 */
function patchFromAnotherThread(
  url: string,
  headers: Record<string, string>,
  bytes: number,
  times: number,
): Promise<Answer[]> {
  const code = `
    const { parentPort, workerData: { url, headers, bytes, times } } = require("node:worker_threads");
    const body = JSON.stringify({ name: "x".repeat(bytes) });
    (async () => {
      const answers = [];
      for (let i = 0; i < times; i++) {
        const response = await fetch(url, { method: "PATCH", headers, body });
        answers.push({ status: response.status, connection: response.headers.get("connection"), body: await response.json() });
      }
      return answers;
    })().then(
      (answers) => parentPort.postMessage({ answers }),
      (error) => parentPort.postMessage({ failure: String(error.cause ?? error) }),
    );
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { url, headers, bytes, times } });
    worker.once("message", (result: { answers?: Answer[]; failure?: string }) => {
      void worker.terminate();
      if (result.answers) resolve(result.answers);
      else reject(new Error(`fetch failed: ${result.failure}`));
    });
    worker.once("error", reject);
  });
}

describe("a body over the limit, over HTTP", () => {
  let svc: TestService;
  let url: string;
  beforeAll(async () => {
    svc = await startService({ kind: "sqlite", logLevel: "silent" });
    await svc.app.listen({ port: 0, host: "127.0.0.1" });
    const address = svc.app.server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    url = `http://127.0.0.1:${port}/api/v1/identities/${svc.info.adminIdentityId}`;
  });
  afterAll(async () => svc?.close());

  it("reaches Node's fetch as a 413 in the envelope, naming the limit, on a connection kept open", async () => {
    const headers = { "content-type": "application/json", authorization: `Bearer ${svc.adminToken}` };
    const answers = await patchFromAnotherThread(url, headers, 6 * 1024 * 1024, 5);
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(answer.connection).not.toBe("close");
      expect(ErrorBodySchema.parse(answer.body)).toEqual({
        reqId: expect.any(String),
        statusCode: 413,
        error: "PayloadTooLarge",
        message: "The request body is larger than the 1 MB limit",
      });
    }
  });
});

describe("error mapping", () => {
  it("turns unexpected errors into a 500 that leaks nothing", () => {
    const mapped = toErrorBody(new Error("connection to db-internal:5432 refused"), {
      reqId: "req-abcdefghijklmn",
      bodyLimit: 1024 * 1024,
    });
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
