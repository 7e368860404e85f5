import { request as httpRequest } from "node:http";
import { errorNames } from "@keyhold/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CSRF, JSON_CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";
import { answerAsRecorded, fakeAccessToken, recordedAnswer, IDENTITY_ID, membership, ORG_ID } from "../test/samples.ts";

let upstream: RecordingUpstream;
let bff: TestBff;
let cookie: string;
let token: string;

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  bff = await startBff(testConfig({ upstreamOrigin: upstream.origin }));
});
afterAll(async () => {
  await bff.close();
  await upstream.close();
});
beforeEach(async () => {
  token = fakeAccessToken();
  upstream.respond(() => ({ status: 200, body: { identity: membership() } }));
  ({ cookie } = await logIn(bff, token));
  upstream.requests.length = 0;
  upstream.respond(answerAsRecorded);
});

/** A GET whose connection comes from `localAddress` (Linux answers on all of 127/8); resolves with the status. */
function getFrom(localAddress: string, path: string, headers: Record<string, string>): Promise<number> {
  const address = bff.app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: "127.0.0.1", port, localAddress, path, headers });
    outgoing.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

const secretBody = JSON.stringify({ workspaceId: "proj-1", environment: "dev", secretValue: "v" });
const patchSecret = (name: string) =>
  bff.send({
    method: "PATCH",
    path: `/api/v3/secrets/raw/${name}`,
    headers: { ...JSON_CSRF, cookie },
    body: secretBody,
  });

describe("the allowlist", () => {
  it.each([
    ["GET", "/api/v1/admin"],
    ["GET", "/api/v1/identities/x/extra"],
    ["POST", "/api/v1/identities/00000000-0000-4000-8000-000000000000"],
    ["PUT", "/api/v1/identities"],
    ["DELETE", "/api/v1/identities"],
    ["GET", "/api/v2/workspace"],
    ["HEAD", "/api/v1/identities?orgId=x"],
    ["OPTIONS", "/api/v1/identities"],
    ["GET", "/api"],
    ["GET", "/api/"],
    ["GET", "/api/v3/secrets/raw//evil.example/x"],
    ["GET", "/api/v3/secrets/raw/%2F%2Fevil.example%2Fx/more"],
  ])("%s %s → 404 and no upstream request", async (method, path) => {
    const res = await bff.send({ method, path, headers: { ...CSRF, cookie } });
    expect(res.status).toBe(404);
    if (method !== "HEAD") expect(res.json).toMatchObject({ statusCode: 404, error: errorNames.notFound });
    expect(upstream.requests).toEqual([]);
  });

  it("reads a secret whose name holds encoded slashes as that one encoded segment, on the same host", async () => {
    const res = await bff.send({
      path: "/api/v3/secrets/raw/%2F%2Fevil.example%2Fx?workspaceId=p&environment=dev",
      headers: { ...CSRF, cookie },
    });
    expect(res.status).toBe(200);
    expect(upstream.requests.map((r) => r.url.split("?")[0])).toEqual(["/api/v3/secrets/raw/%2F%2Fevil.example%2Fx"]);
    expect(upstream.requests[0]?.headers.host).toBe(new URL(upstream.origin).host);
  });

  it.each(["/api/nope", "/bff/nope", "/api/v1/identities", "/api"])(
    "checks X-CSRF before anything else on %s",
    async (path) => {
      const res = await bff.send({ method: "DELETE", path, headers: { cookie } });
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ error: errorNames.unauthorized, message: /X-CSRF/ });
    },
  );

  it.each([`/%61pi/v1/identities?orgId=${ORG_ID}`, "/%62ff/session", "/%61%70%69/v1/identities/x"])(
    "still requires X-CSRF when the prefix is percent-encoded (%s)",
    async (path) => {
      const res = await bff.send({ path, headers: { cookie } });
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ error: errorNames.unauthorized, message: /X-CSRF/ });
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(upstream.requests).toEqual([]);
    },
  );
});

describe("path parameters", () => {
  const refusedOrEncoded: [string, string | null][] = [
    ["..", null],
    ["%2e%2e", null],
    [".%2e", null],
    ["%252e%252e", null],
    ["..%2fadmin", "..%2Fadmin"],
    ["%2e%2e%2f", "..%2F"],
    ["%2F%2Fevil.example%2Fx", "%2F%2Fevil.example%2Fx"],
    ["%5c", "%5C"],
    ["%5Cevil.example", "%5Cevil.example"],
    ["a%2Fb", "a%2Fb"],
    // NUL itself is refused before anything is sent (unstorable-text.test.ts).
    ["%01", "%01"],
    ["a%3Fb%23c", "a%3Fb%23c"],
    ["%40evil.example", "%40evil.example"],
  ];

  it.each(refusedOrEncoded)("%s is refused or stays one encoded segment", async (value, expected) => {
    const res = await patchSecret(value);
    if (expected === null) {
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: errorNames.badRequest, message: /dot segment/ });
      expect(upstream.requests).toEqual([]);
    } else {
      expect(res.status).toBe(200);
      expect(upstream.requests.map((r) => r.url)).toEqual([`/api/v3/secrets/raw/${expected}`]);
      expect(upstream.requests[0]?.headers.host).toBe(new URL(upstream.origin).host);
    }
  });

  it.each(["//evil.example/x", "/\\evil.example", "../../admin"])(
    "raw %s never reaches the upstream",
    async (value) => {
      const res = await patchSecret(value);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(upstream.requests).toEqual([]);
    },
  );

  it("validates parameters against the contract (422)", async () => {
    const res = await bff.send({ path: "/api/v1/identities/not-a-uuid", headers: { ...CSRF, cookie } });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ error: errorNames.validation, message: [{ path: ["identityId"] }] });
    expect(upstream.requests).toEqual([]);
  });
});

describe("what goes upstream", () => {
  it("builds the query from the parsed query only", async () => {
    const res = await bff.send({
      path: `/api/v1/identities?orgId=${ORG_ID}&extra=1&__proto__[x]=1`,
      headers: { ...CSRF, cookie },
    });
    expect(res.status).toBe(200);
    expect(upstream.requests.map((r) => r.url)).toEqual([`/api/v1/identities?orgId=${ORG_ID}`]);
  });

  it("sends a comma list and key=value pairs on as the browser wrote them, not as the schema reads them", async () => {
    upstream.respond(() => ({ status: 200, body: { auditLogs: [] } }));
    const res = await bff.send({
      path: "/api/v1/organization/audit-logs?eventType=update-secret%2Cdelete-secret&eventMetadata=identityId%3Di-1&limit=100&junk=1",
      headers: { ...CSRF, cookie },
    });
    expect(res.status).toBe(200);
    const sent = new URL(upstream.requests[0]?.url ?? "", "http://upstream").searchParams;
    expect(sent.getAll("eventType")).toEqual(["update-secret,delete-secret"]);
    expect(sent.get("eventMetadata")).toBe("identityId=i-1");
    expect(sent.get("limit")).toBe("100");
    expect(sent.get("junk")).toBeNull();
  });

  it("sends the session's bearer token and none of the browser's credentials or hop-by-hop headers", async () => {
    const res = await bff.send({
      method: "PATCH",
      path: `/api/v1/identities/${IDENTITY_ID}`,
      headers: {
        ...JSON_CSRF,
        cookie: `${cookie}; other=1`,
        authorization: "Bearer browser-supplied",
        "x-forwarded-for": "203.0.113.9",
        "x-forwarded-host": "evil.example",
        "x-real-ip": "203.0.113.9",
        "proxy-authorization": "Basic eA==",
        connection: "keep-alive, x-custom",
        "x-custom": "1",
        te: "trailers",
        upgrade: "websocket",
        origin: "http://127.0.0.1",
      },
      body: JSON.stringify({ name: "renamed", unknownField: true }),
    });
    expect(res.status).toBe(200);
    const sent = upstream.requests[0];
    expect(sent?.headers.authorization).toBe(`Bearer ${token}`);
    expect(sent?.headers["content-type"]).toBe("application/json");
    expect(sent?.headers.accept).toBe("application/json");
    for (const name of ["cookie", "x-forwarded-host", "x-real-ip", "proxy-authorization"]) {
      expect(sent?.headers[name], name).toBeUndefined();
    }
    // The browser's own address replaces whatever it claimed.
    expect(sent?.headers["x-forwarded-for"]).toBe("127.0.0.1");
    for (const name of ["x-custom", "te", "upgrade", "origin", "x-csrf"])
      expect(sent?.headers[name], name).toBeUndefined();
    expect(sent?.headers.host).toBe(new URL(upstream.origin).host);
    expect(JSON.parse(sent?.body ?? "")).toEqual({ name: "renamed" });
  });

  it("sends the browser's socket address as the only X-Forwarded-For, never what the browser sent", async () => {
    for (const forged of [undefined, "127.0.0.1", "10.9.9.9, 127.0.0.1"]) {
      upstream.requests.length = 0;
      const status = await getFrom("127.0.0.2", `/api/v1/identities/${IDENTITY_ID}`, {
        ...CSRF,
        cookie,
        ...(forged !== undefined && { "x-forwarded-for": forged }),
      });
      expect(status, forged).toBe(200);
      expect(
        upstream.requests.map((r) => r.headers["x-forwarded-for"]),
        forged,
      ).toEqual(["127.0.0.2"]);
    }
  });

  it("returns the upstream status and JSON body but none of its other headers", async () => {
    const answer = recordedAnswer("identities.get");
    upstream.respond(() => ({
      status: 201,
      body: answer,
      headers: { "set-cookie": "upstream=1; Path=/", "x-upstream": "yes", server: "upstream" },
    }));
    const res = await bff.send({ path: `/api/v1/identities/${IDENTITY_ID}`, headers: { ...CSRF, cookie } });
    expect(res.status).toBe(201);
    expect(res.json).toEqual(answer);
    expect(res.headers["set-cookie"]).toBeUndefined();
    expect(res.headers["x-upstream"]).toBeUndefined();
    expect(res.headers.server).toBeUndefined();
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
  });

  it("answers 502 when the upstream sends something other than JSON", async () => {
    upstream.respond(() => ({ status: 500, headers: { "content-type": "text/html" }, body: "<html>" }));
    const res = await bff.send({ path: `/api/v1/identities/${IDENTITY_ID}`, headers: { ...CSRF, cookie } });
    expect(res.status).toBe(502);
    expect(res.json).toMatchObject({ error: errorNames.badGateway, message: /unexpected response \(HTTP 500\)/ });
  });
});

describe("content type", () => {
  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])(
    "refuses a %s body with 415",
    async (type) => {
      const res = await bff.send({
        method: "POST",
        path: "/api/v2/workspace",
        headers: { ...CSRF, cookie, "content-type": type },
        body: '{"projectName":"x"}',
      });
      expect(res.status).toBe(415);
      expect(res.json).toMatchObject({ statusCode: 415, error: errorNames.unsupportedMediaType });
      expect(upstream.requests).toEqual([]);
    },
  );

  it("refuses prototype pollution with 400", async () => {
    const res = await bff.send({
      method: "POST",
      path: "/api/v2/workspace",
      headers: { ...JSON_CSRF, cookie },
      body: '{"projectName":"x","__proto__":{"isAdmin":true}}',
    });
    expect(res.status).toBe(400);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(upstream.requests).toEqual([]);
  });

  it("answers malformed JSON with 400 without quoting it", async () => {
    const res = await bff.send({
      method: "POST",
      path: "/api/v2/workspace",
      headers: { ...JSON_CSRF, cookie },
      body: '{"projectName": "tok_ABC',
    });
    expect(res.status).toBe(400);
    expect(res.text).not.toContain("tok_ABC");
  });
});

describe("a token the upstream no longer accepts", () => {
  it.each([
    [401, { reqId: "req-a", statusCode: 401, message: "Token revoked", error: errorNames.unauthorized }],
    [403, { reqId: "req-b", statusCode: 403, message: "Your token has expired.", error: errorNames.token }],
  ])("upstream %i ends the session", async (status, body) => {
    upstream.respond(() => ({ status, body }));
    const res = await bff.send({ path: `/api/v1/identities/${IDENTITY_ID}`, headers: { ...CSRF, cookie } });
    expect(res.status).toBe(401);
    expect(res.headers["set-cookie"]?.[0]).toMatch(/^__Host-keyhold=;.*Expires=Thu, 01 Jan 1970/);
    const again = await bff.send({ path: "/bff/session", headers: { ...CSRF, cookie } });
    expect(again.status).toBe(401);
  });
});
