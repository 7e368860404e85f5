import { Worker } from "node:worker_threads";
import { ErrorBodySchema } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBff, type TestBff, testConfig } from "../test/harness.ts";

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
function patchFromAnotherThread(url: string, bytes: number, times: number): Promise<Answer[]> {
  const code = `
    const { parentPort, workerData: { url, bytes, times } } = require("node:worker_threads");
    const body = JSON.stringify({ name: "x".repeat(bytes) });
    const headers = { "content-type": "application/json", "x-csrf": "1" };
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
    const worker = new Worker(code, { eval: true, workerData: { url, bytes, times } });
    worker.once("message", (result: { answers?: Answer[]; failure?: string }) => {
      void worker.terminate();
      if (result.answers) resolve(result.answers);
      else reject(new Error(`fetch failed: ${result.failure}`));
    });
    worker.once("error", reject);
  });
}

describe("a body over the limit", () => {
  let bff: TestBff;
  let url: string;
  beforeAll(async () => {
    bff = await startBff(testConfig());
    const address = bff.app.server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    url = `http://127.0.0.1:${port}/api/v1/identities/00000000-0000-4000-8000-000000000001`;
  });
  afterAll(async () => bff?.close());

  it("reaches Node's fetch as a 413 in the envelope, naming the limit, on a connection kept open", async () => {
    const answers = await patchFromAnotherThread(url, 6 * 1024 * 1024, 5);
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(answer.connection).not.toBe("close");
      const body = ErrorBodySchema.parse(answer.body);
      expect(body).toEqual({
        reqId: expect.stringMatching(/^req-/),
        statusCode: 413,
        error: "PayloadTooLarge",
        message: "The request body is larger than the 1 MB limit",
      });
    }
  });
});
