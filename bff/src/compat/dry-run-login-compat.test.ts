import { randomUUID } from "node:crypto";
import { BffSessionSchema } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSON_CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordedRequest, type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";
import { fakeAccessToken, membership } from "../test/samples.ts";

/**
 * The dry-run logins are Keyhold's own: an Infisical server answers them "route not found". The
 * BFF passes the 404 on and records the feature as missing, so the console says the server cannot
 * dry-run a sign-in, while its browser-side check of a pasted credential goes on working.
 */
describe("a dry-run login through the BFF in front of a server without it", () => {
  let upstream: RecordingUpstream;
  let bff: TestBff;
  let cookie: string;

  const answer = (request: RecordedRequest) => {
    if (request.url.startsWith("/api/v1/identities/")) return { status: 200, body: { identity: membership() } };
    return {
      status: 404,
      body: { statusCode: 404, message: `Route ${request.method}:${request.url} not found`, error: "Not Found" },
    };
  };

  beforeAll(async () => {
    upstream = await startRecordingUpstream(answer);
    bff = await startBff(testConfig({ upstreamOrigin: upstream.origin }));
    ({ cookie } = await logIn(bff, fakeAccessToken()));
  });
  afterAll(async () => {
    await bff?.close();
    await upstream?.close();
  });

  const dryRunFeature = async () => {
    const res = await bff.send({ path: "/bff/session", headers: { ...JSON_CSRF, cookie } });
    return BffSessionSchema.parse(res.json).server.features.find((f) => f.name === "dryRunLogin");
  };

  it("assumes the feature present until an answer proves otherwise", async () => {
    expect(await dryRunFeature()).toEqual({ name: "dryRunLogin", available: true });
  });

  it.each(["oidc-auth", "kubernetes-auth"])("passes on the 404 of %s and marks the feature missing", async (method) => {
    const res = await bff.send({
      method: "POST",
      path: `/api/v1/auth/${method}/identities/${randomUUID()}/dry-run-login`,
      headers: { ...JSON_CSRF, cookie },
      body: JSON.stringify({ settings: {}, jwt: "a.b.c" }),
    });
    expect(res.status, res.text).toBe(404);
    expect(res.json).toMatchObject({ message: expect.stringMatching(/^Route POST:\S+ not found$/) });
    expect(await dryRunFeature()).toEqual({
      name: "dryRunLogin",
      available: false,
      reason:
        "This server cannot dry-run a sign-in: trying a credential without issuing a token is Keyhold's own, which Infisical does not have.",
    });
  });
});
