import { once } from "node:events";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SERVER_FEATURES_HEADER } from "@keyhold/contract";
import { CONTRACT_REVISION_HEADER, contractRevision } from "@keyhold/contract/revision";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";
import { fakeAccessToken, membership, recordedAnswer } from "../test/samples.ts";
import { WITHHELD } from "./rules.ts";

const LIST = "/api/v3/secrets/raw?workspaceId=proj-sample&environment=dev&secretPath=%2F";

/** The recorded list with its records as an October 2024 server sends them: no `secretValueHidden`. */
function listWithoutHiddenFlag(): { secrets: Record<string, unknown>[] } {
  const answer = structuredClone(recordedAnswer("secrets.list")) as { secrets: Record<string, unknown>[] };
  for (const secret of answer.secrets) delete secret.secretValueHidden;
  expect(answer.secrets.length).toBeGreaterThan(0);
  return answer;
}

/**
 * A successful answer that a service of the BFF's own contract revision shaped says so
 * (CONTRACT_REVISION_HEADER), and only where normalising could not change such an answer does
 * the BFF pass its bytes on unread; everything else is read and normalised as before.
 */
describe("answers of the BFF's own contract revision", () => {
  let upstream: RecordingUpstream;
  let bff: TestBff;
  let cookie: string;
  const revision = contractRevision();

  beforeAll(async () => {
    upstream = await startRecordingUpstream();
    bff = await startBff(testConfig({ upstreamOrigin: upstream.origin }));
  });
  afterAll(async () => {
    await bff.close();
    await upstream.close();
  });
  beforeEach(async () => {
    upstream.respond(() => ({ status: 200, body: { identity: membership() } }));
    ({ cookie } = await logIn(bff, fakeAccessToken()));
  });

  it("are passed on byte for byte, unread", async () => {
    // Unread: a record such an answer could never hold keeps its shape (it would be filled in otherwise).
    const answer = listWithoutHiddenFlag();
    upstream.respond(() => ({ status: 200, body: answer, headers: { [CONTRACT_REVISION_HEADER]: revision } }));
    const res = await bff.send({ path: LIST, headers: { ...CSRF, cookie } });
    expect(res.status).toBe(200);
    expect(res.text).toBe(JSON.stringify(answer));
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers[CONTRACT_REVISION_HEADER]).toBeUndefined();
  });

  it.each([
    ["no revision", undefined],
    ["another revision", "another-revision"],
  ])("are read and normalised as before when they carry %s", async (_, other) => {
    upstream.respond(() => ({
      status: 200,
      body: listWithoutHiddenFlag(),
      ...(other !== undefined && { headers: { [CONTRACT_REVISION_HEADER]: other } }),
    }));
    const res = await bff.send({ path: LIST, headers: { ...CSRF, cookie } });
    expect(res.status).toBe(200);
    const secrets = (res.json as { secrets: { secretValueHidden?: unknown }[] }).secrets;
    expect(secrets.map((s) => s.secretValueHidden)).toEqual(secrets.map(() => false));
  });

  it("still have a stored credential withheld (Kubernetes auth)", async () => {
    const answer = structuredClone(recordedAnswer("kubernetesAuth.get")) as {
      identityKubernetesAuth: Record<string, unknown>;
    };
    answer.identityKubernetesAuth.tokenReviewerJwt = "eyJ.stored.jwt";
    upstream.respond(() => ({ status: 200, body: answer, headers: { [CONTRACT_REVISION_HEADER]: revision } }));
    const res = await bff.send({
      path: "/api/v1/auth/kubernetes-auth/identities/0b7a3f9e-2c4d-4e6f-8a1b-3c5d7e9f1a2b",
      headers: { ...CSRF, cookie },
    });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain("eyJ.stored.jwt");
    expect((res.json as typeof answer).identityKubernetesAuth.tokenReviewerJwt).toBe(WITHHELD);
  });

  it("still have a field the contract lets them leave out filled, and its feature learnt (projects)", async () => {
    const answer = structuredClone(recordedAnswer("projects.get")) as { workspace: Record<string, unknown> };
    delete answer.workspace.description;
    upstream.respond(() => ({ status: 200, body: answer, headers: { [CONTRACT_REVISION_HEADER]: revision } }));
    const res = await bff.send({ path: "/api/v1/workspace/proj-sample", headers: { ...CSRF, cookie } });
    expect(res.status).toBe(200);
    expect((res.json as typeof answer).workspace.description).toBeNull();
    expect(res.headers[SERVER_FEATURES_HEADER]).toBe("projectDescription");
  });

  it("are read as errors are when they refuse (403 with the revision)", async () => {
    upstream.respond(() => ({
      status: 403,
      body: { statusCode: 403, error: "PermissionDenied", message: "You are not allowed to access this resource" },
      headers: { [CONTRACT_REVISION_HEADER]: revision },
    }));
    const res = await bff.send({ path: LIST, headers: { ...CSRF, cookie } });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ statusCode: 403, error: "PermissionDenied", reqId: expect.any(String) });
  });
});

/** An upstream that answers a long list as the test says: whole, in chunks, or broken off. */
describe("a long answer of the BFF's own contract revision", () => {
  const revision = contractRevision();
  const answer = JSON.stringify({
    secrets: Array.from({ length: 20_000 }, (_, i) => ({
      id: `s${i}`,
      secretKey: `KEY_${i}`,
      secretValue: "x".repeat(40),
    })),
  });
  let mode: "length" | "chunked" | "broken" = "length";
  let upstream: Server;
  let bff: TestBff;
  let cookie: string;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      if (req.url?.startsWith("/api/v1/identities/")) {
        res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ identity: membership() }));
        return;
      }
      const bytes = Buffer.from(answer);
      const half = bytes.subarray(0, bytes.length >> 1);
      const headers = { "content-type": "application/json; charset=utf-8", [CONTRACT_REVISION_HEADER]: revision };
      if (mode === "length") {
        res.writeHead(200, { ...headers, "content-length": bytes.length });
        res.end(bytes);
      } else if (mode === "chunked") {
        res.writeHead(200, headers);
        res.write(half);
        setTimeout(() => res.end(bytes.subarray(half.length)), 20);
      } else {
        res.writeHead(200, { ...headers, "content-length": bytes.length });
        res.write(half, () => setTimeout(() => res.destroy(), 20));
      }
    });
    upstream.listen(0, "127.0.0.1");
    await once(upstream, "listening");
    const { port } = upstream.address() as AddressInfo;
    bff = await startBff(testConfig({ upstreamOrigin: `http://127.0.0.1:${port}` }));
    ({ cookie } = await logIn(bff, fakeAccessToken()));
  });
  afterAll(async () => {
    await bff.close();
    upstream.closeAllConnections();
    upstream.close();
  });
  afterEach(() => {
    mode = "length";
  });

  it("streams through with the upstream's length", async () => {
    expect(answer.length).toBeGreaterThan(1_000_000);
    const res = await bff.send({ path: LIST, headers: { ...CSRF, cookie } });
    expect(res.status).toBe(200);
    expect(res.headers["content-length"]).toBe(String(answer.length));
    expect(res.text).toBe(answer);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers[CONTRACT_REVISION_HEADER]).toBeUndefined();
  });

  it("streams through in chunks when the upstream gives no length", async () => {
    mode = "chunked";
    const res = await bff.send({ path: LIST, headers: { ...CSRF, cookie } });
    expect(res.status).toBe(200);
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    expect(res.text).toBe(answer);
  });

  it("breaks off too when the upstream breaks off: the browser never takes half an answer as whole", async () => {
    mode = "broken";
    const address = bff.app.server.address() as AddressInfo;
    const outcome = await new Promise<string>((resolve) => {
      const outgoing = httpRequest({ host: "127.0.0.1", port: address.port, path: LIST, headers: { ...CSRF, cookie } });
      outgoing.on("response", (res) => {
        let received = 0;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
        });
        res.on("end", () => resolve(received === answer.length ? "whole" : "ended short"));
        res.on("error", () => resolve("broken off"));
        res.on("aborted", () => resolve("broken off"));
      });
      outgoing.on("error", () => resolve("broken off"));
      outgoing.end();
    });
    expect(outcome).toBe("broken off");
    // The BFF is still there for the next call.
    mode = "length";
    expect((await bff.send({ path: LIST, headers: { ...CSRF, cookie } })).text).toBe(answer);
  });
});
