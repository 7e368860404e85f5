import { endpoints } from "@keyhold/contract";
import { recording } from "@keyhold/fixtures";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CSRF, JSON_CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordedRequest, type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";
import { fakeAccessToken, membership } from "../test/samples.ts";

/**
 * Audit log streams on an October 2024 server: one route without a provider, `{url, headers}`
 * bodies, `{id, url, createdAt, updatedAt}` records, header values in clear on a read (recorded:
 * 2024-10-more 003, 006, 007, 103, 110). The stand-in keeps one organisation's streams and answers
 * as that server does; the console speaks the provider routes of current servers.
 */
const STREAM_ID = "13d4bd7d-7981-436c-acf0-29f3b8a67efe";
type Header = { key: string; value: string };
const createdRecord = (recording(2024, "003-", "more").body as { auditLogStream: Record<string, unknown> })
  .auditLogStream;
const readRecord = (recording(2024, "007-", "more").body as { auditLogStream: Record<string, unknown> }).auditLogStream;

describe("audit log streams through the BFF in front of an October 2024 server", () => {
  let stored: { url: string; headers: Header[] } | undefined;
  let upstream: RecordingUpstream;
  let bff: TestBff;
  let cookie: string;

  const notFound = (request: RecordedRequest) => ({
    status: 404,
    body: { statusCode: 404, message: `Route ${request.method}:${request.url} not found`, error: "Not Found" },
  });
  const record = () => ({ ...createdRecord, id: STREAM_ID, url: stored?.url });
  const answer = (request: RecordedRequest) => {
    if (request.url.startsWith("/api/v1/identities/")) return { status: 200, body: { identity: membership() } };
    if (request.url === "/api/v1/audit-log-streams") {
      if (request.method === "GET") return { status: 200, body: { auditLogStreams: stored ? [record()] : [] } };
      if (request.method !== "POST") return notFound(request);
      stored = JSON.parse(request.body) as { url: string; headers: Header[] };
      return { status: 200, body: { auditLogStream: record() } };
    }
    if (request.url === `/api/v1/audit-log-streams/${STREAM_ID}`) {
      if (!stored) return { status: 404, body: { statusCode: 404, message: "Audit log stream not found" } };
      if (request.method === "GET") {
        return { status: 200, body: { auditLogStream: { ...readRecord, ...record(), headers: stored.headers } } };
      }
      if (request.method === "PATCH") {
        const body = JSON.parse(request.body) as { url?: string; headers?: Header[] };
        // As recorded (106): an update without headers stores none.
        stored = { url: body.url ?? stored.url, headers: body.headers ?? [] };
        return { status: 200, body: { auditLogStream: record() } };
      }
      if (request.method === "DELETE") {
        const gone = record();
        stored = undefined;
        return { status: 200, body: { auditLogStream: gone } };
      }
    }
    // The provider routes and Keyhold's own do not exist there.
    return notFound(request);
  };

  const send = (method: string, path: string, body?: unknown) =>
    bff.send({
      method,
      path,
      headers: body === undefined ? { ...CSRF, cookie } : { ...JSON_CSRF, cookie },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  const upstreamCalls = () =>
    upstream.requests.filter((r) => r.url.startsWith("/api/v1/audit-log")).map((r) => `${r.method} ${r.url}`);

  beforeAll(async () => {
    upstream = await startRecordingUpstream(answer);
    bff = await startBff(testConfig({ upstreamOrigin: upstream.origin }));
    ({ cookie } = await logIn(bff, fakeAccessToken()));
  });
  afterAll(async () => {
    await bff?.close();
    await upstream?.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
    stored = {
      url: "http://127.0.0.1:36333/audit-stream",
      headers: [{ key: "X-Sample-Header", value: "kept-secret" }],
    };
  });

  it("creates through the older route, with its body, and answers the current shape", async () => {
    stored = undefined;
    const res = await send("POST", "/api/v1/audit-log-streams/custom", {
      credentials: { url: "http://127.0.0.1:9000/in", headers: [{ key: "X-Api-Key", value: "k-1" }] },
    });
    expect(res.status, res.text).toBe(200);
    const { auditLogStream } = endpoints["auditLogStreams.create"].response.parse(res.json);
    expect(auditLogStream).toMatchObject({
      provider: "custom",
      streamMode: "single",
      filters: null,
      credentials: { url: "http://127.0.0.1:9000/in", headers: [] },
    });
    expect(upstreamCalls()).toEqual(["POST /api/v1/audit-log-streams/custom", "POST /api/v1/audit-log-streams"]);
    expect(stored).toEqual({ url: "http://127.0.0.1:9000/in", headers: [{ key: "X-Api-Key", value: "k-1" }] });
  });

  it("lists the older records in the current shape", async () => {
    const res = await send("GET", "/api/v1/audit-log-streams");
    expect(res.status, res.text).toBe(200);
    const { auditLogStreams } = endpoints["auditLogStreams.list"].response.parse(res.json);
    expect(auditLogStreams).toEqual([
      expect.objectContaining({ id: STREAM_ID, provider: "custom", streamMode: "single" }),
    ]);
  });

  it("never gives the browser a header value the older read answers in clear", async () => {
    const current = await send("GET", `/api/v1/audit-log-streams/custom/${STREAM_ID}`);
    expect(current.status, current.text).toBe(200);
    const legacy = await send("GET", `/api/v1/audit-log-streams/${STREAM_ID}`);
    expect(legacy.status, legacy.text).toBe(200);
    for (const res of [current, legacy]) expect(res.text).not.toContain("kept-secret");
    expect(endpoints["auditLogStreams.get"].response.parse(current.json).auditLogStream.credentials.headers).toEqual([
      { key: "X-Sample-Header", value: "******" },
    ]);
  });

  it("keeps a stored header value sent back masked, reading it on the server side", async () => {
    const res = await send("PATCH", `/api/v1/audit-log-streams/custom/${STREAM_ID}`, {
      credentials: {
        url: "http://127.0.0.1:36333/audit-stream",
        headers: [
          { key: "X-Sample-Header", value: "******" },
          { key: "X-Second-Header", value: "second" },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toContain("kept-secret");
    expect(stored?.headers).toEqual([
      { key: "X-Sample-Header", value: "kept-secret" },
      { key: "X-Second-Header", value: "second" },
    ]);
  });

  it("refuses a masked value for a header the server does not hold, and changes nothing", async () => {
    const res = await send("PATCH", `/api/v1/audit-log-streams/custom/${STREAM_ID}`, {
      credentials: { url: "http://127.0.0.1:36333/audit-stream", headers: [{ key: "X-Other", value: "******" }] },
    });
    expect(res.status).toBe(400);
    expect((res.json as { message: string }).message).toContain("X-Other");
    expect(upstream.requests.filter((r) => r.method === "PATCH" && !r.url.includes("/custom/"))).toEqual([]);
    expect(stored?.headers).toEqual([{ key: "X-Sample-Header", value: "kept-secret" }]);
  });

  it("deletes through the older route", async () => {
    const res = await send("DELETE", `/api/v1/audit-log-streams/custom/${STREAM_ID}`);
    expect(res.status, res.text).toBe(200);
    expect(endpoints["auditLogStreams.delete"].response.parse(res.json).auditLogStream.id).toBe(STREAM_ID);
    expect(stored).toBeUndefined();
  });

  it("says the server has no delivery state, no verification and no org retention", async () => {
    for (const path of ["/api/v1/audit-log-streams/status", "/api/v1/organization/audit-logs-retention"]) {
      const res = await send("GET", path);
      expect(res.status, path).toBe(404);
    }
    const session = await send("GET", "/bff/session");
    const features = (session.json as { server: { features: { name: string; available: boolean }[] } }).server.features;
    const missing = features.filter((f) => !f.available).map((f) => f.name);
    expect(missing).toEqual(
      expect.arrayContaining(["auditStreamDelivery", "auditChainVerification", "orgAuditRetention"]),
    );
  });
});
