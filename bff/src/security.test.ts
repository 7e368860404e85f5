import { buildPath, type Endpoint, type EndpointId, endpointList, errorNames } from "@keyhold/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { identityRefusedRoutes } from "./compat/routes.ts";
import { CSRF, JSON_CSRF, logIn, startBff, type TestBff, testConfig } from "./test/harness.ts";
import { type RecordingUpstream, startRecordingUpstream } from "./test/recording-upstream.ts";
import {
  answerAsRecorded,
  fakeAccessToken,
  membership,
  ORG_ID,
  sampleBodies,
  sampleParams,
  sampleQueries,
} from "./test/samples.ts";

/** The shared suite: every contract endpoint, no sampling (one skipped route is one hole). */
const forwarded = (endpointList as readonly Endpoint[]).filter((endpoint) => endpoint.auth !== "none");
const cases = forwarded.map((endpoint) => {
  const params = sampleParams(endpoint);
  const sample = sampleQueries[endpoint.id as keyof typeof sampleQueries] ?? {};
  const query = new URLSearchParams(sample as Record<string, string>).toString();
  const path = buildPath(endpoint.path, params) + (query ? `?${query}` : "");
  const body = sampleBodies[endpoint.id as keyof typeof sampleBodies];
  return { id: endpoint.id, endpoint, path, body };
});

const PERMISSION_DENIED = {
  reqId: "req-upstream000001",
  statusCode: 403,
  message: "You are not allowed to edit on identity",
  error: errorNames.permissionDenied,
  details: [{ action: "edit", subject: "identity", inverted: false }],
};

let upstream: RecordingUpstream;
let bff: TestBff;
let cookie: string;

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  bff = await startBff(testConfig({ upstreamOrigin: upstream.origin }));
  upstream.respond(() => ({ status: 200, body: { identity: membership() } }));
  ({ cookie } = await logIn(bff, fakeAccessToken()));
});
afterAll(async () => {
  await bff.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.respond(answerAsRecorded);
  upstream.requests.length = 0;
});

const withBody = (body: unknown) => (body === undefined ? {} : { body: JSON.stringify(body) });

describe("endpoints a session never calls", () => {
  const unauthenticated = (endpointList as readonly Endpoint[]).filter((endpoint) => endpoint.auth === "none");
  it.each(unauthenticated.map((e) => [e.id, e] as const))(
    "%s is not forwarded (404, nothing upstream)",
    async (_id, endpoint) => {
      const res = await bff.send({
        method: endpoint.method,
        path: buildPath(endpoint.path, sampleParams(endpoint)),
        headers: { ...JSON_CSRF, cookie },
        ...withBody(sampleBodies[endpoint.id as keyof typeof sampleBodies]),
      });
      expect(res.status).toBe(404);
      expect(upstream.requests).toEqual([]);
    },
  );
  it("there are such endpoints (logins, renew, revoke)", () => {
    expect(unauthenticated.map((e) => e.id)).toEqual(
      expect.arrayContaining([
        "universalAuth.login",
        "kubernetesAuth.login",
        "oidcAuth.login",
        "awsAuth.login",
        "accessTokens.renew",
        "accessTokens.revoke",
      ]),
    );
  });
});

describe.each(cases)("$id", ({ endpoint, path, body }) => {
  const method = endpoint.method;

  it("has valid samples", () => {
    expect(endpoint.params.safeParse(sampleParams(endpoint)).success).toBe(true);
    expect(endpoint.body.safeParse(body).success).toBe(true);
  });

  it("answers 401 without a session and calls nothing upstream", async () => {
    const res = await bff.send({ method, path, headers: body === undefined ? CSRF : JSON_CSRF, ...withBody(body) });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ statusCode: 401, error: errorNames.unauthorized });
    expect(upstream.requests).toEqual([]);
  });

  it("answers 401 without X-CSRF even with a session", async () => {
    const headers: Record<string, string> = {
      cookie,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    };
    const res = await bff.send({ method, path, headers, ...withBody(body) });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ statusCode: 401, error: errorNames.unauthorized, message: /X-CSRF: 1/ });
    expect(upstream.requests).toEqual([]);
  });

  it("forwards to the template path and passes an upstream 403 through unchanged", async () => {
    upstream.respond(() => ({ status: 403, body: PERMISSION_DENIED }));
    const headers = { ...(body === undefined ? CSRF : JSON_CSRF), cookie };
    const res = await bff.send({ method, path, headers, ...withBody(body) });
    expect(res.status).toBe(403);
    expect(res.json).toEqual(PERMISSION_DENIED);
    const [first, ...then] = upstream.requests.map((r) => `${r.method} ${r.url}`);
    expect(first).toBe(`${method} ${path}`);
    // A list some servers refuse to identities is also asked on its older path; that path's
    // refusal leaves the first answer standing. Nothing else is asked.
    const older = identityRefusedRoutes[endpoint.id as EndpointId]?.listPath;
    expect(then).toEqual(older ? [`GET ${older.replace("{orgId}", ORG_ID)}`] : []);
    expect(res.headers["cache-control"]).toBe("no-store");
  });
});

describe.each(cases.filter((c) => c.body !== undefined))("$id with a body", ({ endpoint, path }) => {
  it("answers 422 to a body that breaks the contract", async () => {
    const res = await bff.send({
      method: endpoint.method,
      path,
      headers: { ...JSON_CSRF, cookie },
      body: JSON.stringify([1, 2]),
    });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ statusCode: 422, error: errorNames.validation });
    const message = (res.json as { message: unknown }).message;
    expect(Array.isArray(message) && message.length > 0).toBe(true);
    expect(upstream.requests).toEqual([]);
  });
});
