import { recording } from "@keyhold/fixtures";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { JSON_CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordedRequest, type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";
import { fakeAccessToken, membership } from "../test/samples.ts";

/**
 * An October 2024 server refuses a secret update without `secretValue` (recorded: 101, a 401
 * naming the field). The console sends only what changed; the BFF then reads the value the
 * secret has at that moment and sends it along, and from then on reads first on that upstream.
 * The stand-in answers as that server did: 101 without a value, 099 to a read, 100 to an update.
 */
describe("a secret update that the upstream refuses without its value", () => {
  const refused = recording(2024, "101-");
  const read = recording(2024, "099-").body as { secret: { secretKey: string; secretValue: string } };
  const updated = recording(2024, "100-");
  const key = read.secret.secretKey;
  const change = { workspaceId: "proj-sample", environment: "dev", secretPath: "/", secretComment: "rotated monthly" };
  let upstream: RecordingUpstream;
  let bff: TestBff;
  let cookie: string;

  const answer = (request: RecordedRequest) => {
    if (request.url.startsWith("/api/v1/identities/")) return { status: 200, body: { identity: membership() } };
    if (request.method === "GET" && request.url.startsWith(`/api/v3/secrets/raw/${key}?`)) {
      return { status: 200, body: read };
    }
    if (request.method === "PATCH") {
      const hasValue = "secretValue" in (JSON.parse(request.body) as object);
      return !hasValue
        ? { status: refused.status, body: refused.body }
        : { status: updated.status, body: updated.body };
    }
    return { status: 404, body: { statusCode: 404, message: `Route ${request.method}:${request.url} not found` } };
  };
  const save = () =>
    bff.send({
      method: "PATCH",
      path: `/api/v3/secrets/raw/${key}`,
      headers: { ...JSON_CSRF, cookie },
      body: JSON.stringify(change),
    });
  const sent = () =>
    upstream.requests
      .filter((r) => r.url.startsWith("/api/v3/secrets/"))
      .map((r) => (r.method === "PATCH" ? { PATCH: JSON.parse(r.body) as object } : { GET: r.url }));

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
  });

  it("reads the current value and sends it with the change", async () => {
    const res = await save();
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(sent()).toEqual([
      { PATCH: expect.not.objectContaining({ secretValue: expect.anything() }) },
      { GET: expect.stringMatching(/workspaceId=proj-sample&environment=dev&secretPath=%2F&type=shared/) },
      { PATCH: { ...change, type: "shared", secretValue: read.secret.secretValue } },
    ]);
  });

  it("reads first on that upstream from then on", async () => {
    expect((await save()).status).toBe(200);
    expect(sent().map((r) => Object.keys(r)[0])).toEqual(["GET", "PATCH"]);
  });

  it("sends a change that carries the value as it is, without reading", async () => {
    const res = await bff.send({
      method: "PATCH",
      path: `/api/v3/secrets/raw/${key}`,
      headers: { ...JSON_CSRF, cookie },
      body: JSON.stringify({ ...change, secretValue: "typed by the person" }),
    });
    expect(res.status).toBe(200);
    expect(sent()).toEqual([{ PATCH: expect.objectContaining({ secretValue: "typed by the person" }) }]);
  });
});

describe("a secret update on an upstream that takes it without its value (mid-2026, recorded: 118)", () => {
  it("is sent once, as the console made it", async () => {
    const upstream = await startRecordingUpstream((request) =>
      request.url.startsWith("/api/v1/identities/")
        ? { status: 200, body: { identity: membership() } }
        : { status: 200, body: recording(2026, "118-").body },
    );
    const bff = await startBff(testConfig({ upstreamOrigin: upstream.origin }));
    try {
      const { cookie } = await logIn(bff, fakeAccessToken());
      const res = await bff.send({
        method: "PATCH",
        path: "/api/v3/secrets/raw/DATABASE_URL",
        headers: { ...JSON_CSRF, cookie },
        body: JSON.stringify({ workspaceId: "proj-sample", environment: "dev", secretPath: "/", secretComment: "x" }),
      });
      expect(res.status).toBe(200);
      expect(upstream.requests.filter((r) => r.url.startsWith("/api/v3/secrets/")).map((r) => r.method)).toEqual([
        "PATCH",
      ]);
    } finally {
      await bff.close();
      await upstream.close();
    }
  });
});
