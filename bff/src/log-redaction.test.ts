import { Writable } from "node:stream";
import { type AnyEndpoint, buildPath, type EndpointId, endpoints } from "@keyhold/contract";
import { describeEachDatabase, startService, type TestService } from "@keyhold/service/test/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "./logger.ts";
import {
  JSON_CSRF,
  logIn,
  type RawResponse,
  sessionCookieFrom,
  startBff,
  type TestBff,
  testConfig,
} from "./test/harness.ts";

/**
 * A real service behind a real BFF, both logging at `trace` through their own loggers (with
 * their redaction) into captured streams: on SQLite with in-memory sessions, and on PostgreSQL
 * with the sessions in Redis when both are configured. Requests carry every kind of credential:
 * bearer tokens, session cookies, a universal-auth client secret (right and wrong), and a
 * secret's value; none of them may appear anywhere in either log.
 */

const redisUrl = process.env.KEYHOLD_TEST_REDIS_URL;

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString("utf8"));
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}

describeEachDatabase("logs and request ids", (kind) => {
  const bffLog = capture();
  let svc: TestService;
  let serviceOrigin: string;
  let adminToken: string;
  let bff: TestBff;
  const serviceLog = { text: () => svc.logs() };

  beforeAll(async () => {
    svc = await startService({ kind, logLevel: "trace" });
    serviceOrigin = await svc.app.listen({ port: 0, host: "127.0.0.1" });
    adminToken = svc.adminToken.trim();
    // On PostgreSQL the BFF keeps its sessions in Redis, when one is configured for the tests.
    const sessions = kind === "postgres" && redisUrl ? { redisUrl } : {};
    bff = await startBff(testConfig({ upstreamOrigin: serviceOrigin, ...sessions }), {
      logger: createLogger("trace", bffLog.stream),
    });
  });
  afterAll(async () => {
    await bff?.close();
    await svc?.close();
  });

  /** One contract endpoint through the BFF, signed in by the session cookie. */
  async function viaBff(
    cookie: string,
    id: EndpointId,
    input: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {},
    headers: Record<string, string> = {},
  ): Promise<RawResponse> {
    const endpoint: AnyEndpoint = endpoints[id];
    const query = input.query ? `?${new URLSearchParams(input.query)}` : "";
    return bff.send({
      method: endpoint.method,
      path: buildPath(endpoint.path, input.params ?? {}) + query,
      headers: { ...JSON_CSRF, cookie, ...headers },
      ...(input.body !== undefined && { body: JSON.stringify(input.body) }),
    });
  }

  /** Waits until both logs hold a line with this request id (lines are written once the response went out). */
  async function loggedBoth(reqId: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if (serviceLog.text().includes(reqId) && bffLog.text().includes(reqId)) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`request ${reqId} is not in both logs`);
  }

  describe("logs of the BFF and the service", () => {
    it("carry no token, cookie, client secret or secret value, whatever the requests held", async () => {
      const credentials: Record<string, string> = {};

      // A bearer token straight to the service (as an SDK sends it), and a wrong one.
      credentials.adminToken = adminToken;
      credentials.adminTokenSignature = adminToken.split(".")[2] ?? adminToken;
      const direct = await fetch(`${serviceOrigin}/api/v1/identities?orgId=${svc.info.orgId}`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(direct.status).toBe(200);
      credentials.wrongBearer = "eyJhbGciOiJIUzI1NiJ9.eyJ3cm9uZyI6dHJ1ZX0.wrong-bearer-signature-9f8e7d";
      const refused = await fetch(`${serviceOrigin}/api/v1/identities?orgId=${svc.info.orgId}`, {
        headers: { authorization: `Bearer ${credentials.wrongBearer}` },
      });
      expect(refused.status).toBe(403);

      // Signed in to the BFF with the token: the session cookie.
      const admin = await logIn(bff, adminToken);
      credentials.adminSession = admin.cookie.split("=")[1] ?? "";

      // A universal-auth identity and its client secret, made through the BFF.
      const created = await viaBff(admin.cookie, "identities.create", {
        body: { name: "log-probe", organizationId: svc.info.orgId, role: "admin" },
      });
      expect(created.status).toBe(200);
      const identityId = endpoints["identities.create"].response.parse(created.json).identity.id;
      const attached = await viaBff(admin.cookie, "universalAuth.attach", { params: { identityId }, body: {} });
      expect(attached.status).toBe(200);
      const { clientId } = endpoints["universalAuth.attach"].response.parse(attached.json).identityUniversalAuth;
      const issued = await viaBff(admin.cookie, "universalAuth.createClientSecret", {
        params: { identityId },
        body: {},
      });
      expect(issued.status).toBe(200);
      credentials.clientSecret = endpoints["universalAuth.createClientSecret"].response.parse(issued.json).clientSecret;

      // Sign-in with the client secret (through the BFF and straight to the service), and with a wrong one.
      const machine = await bff.send({
        method: "POST",
        path: "/bff/login",
        headers: JSON_CSRF,
        body: JSON.stringify({ clientId, clientSecret: credentials.clientSecret }),
      });
      expect(machine.status).toBe(200);
      credentials.machineSession = sessionCookieFrom(machine)?.split("=")[1] ?? "";
      expect(credentials.machineSession).not.toBe("");
      const login = await fetch(`${serviceOrigin}${endpoints["universalAuth.login"].path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ clientId, clientSecret: credentials.clientSecret }),
      });
      expect(login.status).toBe(200);
      credentials.machineToken = ((await login.json()) as { accessToken: string }).accessToken;
      credentials.wrongClientSecret = "0123456789abcdef-wrong-client-secret-fedcba9876543210";
      const wrong = await bff.send({
        method: "POST",
        path: "/bff/login",
        headers: JSON_CSRF,
        body: JSON.stringify({ clientId, clientSecret: credentials.wrongClientSecret }),
      });
      expect(wrong.status).toBe(401);

      // A secret with a distinctive value, created through the BFF and read back.
      const project = await viaBff(admin.cookie, "projects.create", {
        body: { projectName: "Log probe", slug: "log-probe" },
      });
      expect(project.status).toBe(200);
      const workspaceId = endpoints["projects.create"].response.parse(project.json).project.id;
      credentials.secretValue = "pa55-Value-that-must-never-be-logged-7c1e";
      const secret = await viaBff(admin.cookie, "secrets.create", {
        params: { secretName: "LOG_PROBE" },
        body: { workspaceId, environment: "dev", secretPath: "/", secretValue: credentials.secretValue },
      });
      expect(secret.status).toBe(200);
      const read = await viaBff(admin.cookie, "secrets.get", {
        params: { secretName: "LOG_PROBE" },
        query: { workspaceId, environment: "dev" },
      });
      expect(read.status).toBe(200);
      expect(read.text).toContain(credentials.secretValue);

      // A dry-run login through the BFF: a service account token and a reviewer JWT in the body.
      credentials.serviceAccountToken = "service-account-token-never-logged-3b9d";
      credentials.reviewerJwt = "reviewer-jwt-never-logged-5e2a71";
      const dryRun = await viaBff(admin.cookie, "kubernetesAuth.dryRunLogin", {
        params: { identityId: svc.info.adminIdentityId },
        body: {
          settings: { kubernetesHost: "http://127.0.0.1:9", tokenReviewerJwt: credentials.reviewerJwt },
          jwt: credentials.serviceAccountToken,
        },
      });
      expect(dryRun.status).toBe(200);
      expect(dryRun.text).not.toContain(credentials.serviceAccountToken);

      // A stale cookie and a bearer header sent to the BFF (which ignores it).
      const stale = await bff.send({
        path: "/bff/session",
        headers: { ...JSON_CSRF, cookie: `__Host-keyhold=${"s".repeat(43)}`, authorization: `Bearer ${adminToken}` },
      });
      expect(stale.status).toBe(401);

      await loggedBoth(read.headers["x-request-id"] as string);
      const logs = { service: serviceLog.text(), bff: bffLog.text() };
      // The logs did record the requests (the test would prove nothing on empty logs).
      expect(logs.service).toContain("/api/v3/secrets/raw/LOG_PROBE");
      expect(logs.bff).toContain("/api/v3/secrets/raw/:secretName");
      for (const [which, text] of Object.entries(logs)) {
        for (const [name, value] of Object.entries(credentials)) {
          expect(value.length, name).toBeGreaterThan(15);
          expect(text.includes(value), `${name} in the ${which} log`).toBe(false);
        }
      }
    });
  });

  describe("request ids", () => {
    it("follow a request from the BFF to the service: the caller's id when valid, returned in X-Request-Id", async () => {
      const { cookie } = await logIn(bff, adminToken);
      const reqId = "4f2c9a1e-7b3d-4c5e-9f10-a1b2c3d4e5f6";
      const res = await viaBff(
        cookie,
        "identities.list",
        { query: { orgId: svc.info.orgId } },
        { "x-request-id": reqId },
      );
      expect(res.status).toBe(200);
      expect(res.headers["x-request-id"]).toBe(reqId);
      await loggedBoth(reqId);
      const lineWith = (text: string) =>
        text
          .split("\n")
          .filter((line) => line.includes(reqId))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lineWith(bffLog.text())).toContainEqual(
        expect.objectContaining({ reqId, route: "/api/v1/identities", statusCode: 200 }),
      );
      expect(lineWith(serviceLog.text())).toContainEqual(
        expect.objectContaining({ reqId, path: "/api/v1/identities", statusCode: 200 }),
      );
    });

    it.each([
      ["missing", undefined],
      ["with spaces", "not a request id"],
      ["too long", "a".repeat(129)],
      ["with a line break", "req-abc\\ninjected"],
    ])("are made by the BFF when the caller's is %s, and still reach the service", async (_, header) => {
      const res = await bff.send({
        path: "/bff/session",
        headers: { ...JSON_CSRF, ...(header && { "x-request-id": header }) },
      });
      expect(res.status).toBe(401);
      const reqId = res.headers["x-request-id"] as string;
      expect(reqId).toMatch(/^req-[A-Za-z0-9]{14}$/);
      expect((res.json as { reqId: string }).reqId).toBe(reqId);

      const { cookie } = await logIn(bff, adminToken);
      const listed = await viaBff(
        cookie,
        "identities.list",
        { query: { orgId: svc.info.orgId } },
        header ? { "x-request-id": header } : {},
      );
      const generated = listed.headers["x-request-id"] as string;
      expect(generated).toMatch(/^req-[A-Za-z0-9]{14}$/);
      await loggedBoth(generated);
    });
  });
});
