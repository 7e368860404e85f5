import { mkdtemp, readFile, rm } from "node:fs/promises";
import { type IncomingHttpHeaders, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { BffSessionSchema, endpoints, errorNames } from "@keyhold/contract";
import { CONTRACT_REVISION_HEADER, contractRevision } from "@keyhold/contract/revision";
import { buildApp as buildService } from "@keyhold/service/app";
import { loadConfig as loadServiceConfig } from "@keyhold/service/config";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CSRF, JSON_CSRF, logIn, sessionCookieFrom, startBff, type TestBff, testConfig } from "./test/harness.ts";

const MINUTE = 60_000;
let dataDir: string;
let service: FastifyInstance;
let serviceOrigin: string;
let adminToken: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "keyhold-bff-"));
  service = await buildService({ config: loadServiceConfig({ KEYHOLD_DATA_DIR: dataDir, LOG_LEVEL: "silent" }) });
  serviceOrigin = await service.listen({ port: 0, host: "127.0.0.1" });
  adminToken = (await readFile(join(dataDir, "admin-token"), "utf8")).trim();
});
afterAll(async () => {
  await service.close();
  await rm(dataDir, { recursive: true, force: true });
});

let bff: TestBff;
let now: number;
beforeEach(async () => {
  now = Date.parse("2030-06-01T08:00:00.000Z");
  bff = await startBff(testConfig({ upstreamOrigin: serviceOrigin, loginRateLimit: { max: 20, windowMs: MINUTE } }), {
    clock: () => now,
  });
  return () => bff.close();
});

/** A GET to the BFF whose body is kept as the bytes that came (no decoding of any kind). */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const { port } = new URL(bff.app.listeningOrigin);
    const outgoing = httpRequest({ host: "127.0.0.1", port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

const session = (cookie: string) => bff.send({ path: "/bff/session", headers: { ...CSRF, cookie } });
const listIdentities = (cookie: string) =>
  bff.send({ path: `/api/v1/identities?orgId=${service.keyhold.orgId}`, headers: { ...CSRF, cookie } });

describe("against the real service", () => {
  it("signs in with the admin token and tells the SPA who is signed in", async () => {
    const { cookie, response } = await logIn(bff, adminToken);
    const expected = {
      identity: { id: service.keyhold.adminIdentityId, name: "admin", role: "admin" },
      organization: { id: service.keyhold.orgId },
      expiresAt: "2030-06-01T16:00:00.000Z",
      idleExpiresAt: "2030-06-01T08:15:00.000Z",
      server: {
        features: [
          { name: "auditChainVerification", available: true },
          { name: "auditStreamDelivery", available: true },
          { name: "auditLogs", available: true },
          { name: "deleteProtection", available: true },
          { name: "dryRunLogin", available: true },
          { name: "multipleAuthMethods", available: true },
          { name: "orgAuditRetention", available: true },
          { name: "privilegesV2", available: true },
          { name: "projectDescription", available: true },
        ],
      },
    };
    expect(BffSessionSchema.parse(response.json)).toEqual(expected);
    expect((await session(cookie)).json).toEqual(expected);
    expect(response.text).not.toContain(adminToken);
  });

  it("sets the session cookie with every required flag", async () => {
    const { response } = await logIn(bff, adminToken);
    const header = response.headers["set-cookie"]?.find((c) => c.startsWith("__Host-keyhold=")) ?? "";
    const attributes = header.split("; ").slice(1).sort();
    expect(attributes).toEqual(["HttpOnly", "Path=/", "SameSite=Strict", "Secure"]);
  });

  it("signs in with a universal-auth client ID and secret, and works with the token it got", async () => {
    const asAdmin = (path: string, body: unknown) =>
      fetch(`${serviceOrigin}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, unknown> }));
    const created = await asAdmin("/api/v1/identities", {
      name: "ua-console",
      organizationId: service.keyhold.orgId,
      role: "member",
    });
    const identityId = (created.json.identity as { id: string }).id;
    const attached = await asAdmin(`/api/v1/auth/universal-auth/identities/${identityId}`, {});
    expect(attached.status).toBe(200);
    const clientId = (attached.json.identityUniversalAuth as { clientId: string }).clientId;
    const secret = await asAdmin(`/api/v1/auth/universal-auth/identities/${identityId}/client-secrets`, {
      description: "console",
    });
    expect(secret.status).toBe(200);
    const clientSecret = secret.json.clientSecret as string;

    const res = await bff.send({
      method: "POST",
      path: "/bff/login",
      headers: JSON_CSRF,
      body: JSON.stringify({ clientId, clientSecret }),
    });
    expect(res.status).toBe(200);
    expect(BffSessionSchema.parse(res.json).identity).toMatchObject({
      id: identityId,
      name: "ua-console",
      role: "member",
    });
    const cookie = sessionCookieFrom(res) ?? "";
    const list = await bff.send({
      path: `/api/v1/identities?orgId=${service.keyhold.orgId}`,
      headers: { ...CSRF, cookie },
    });
    expect(list.status).toBe(200);

    const wrong = await bff.send({
      method: "POST",
      path: "/bff/login",
      headers: JSON_CSRF,
      body: JSON.stringify({ clientId, clientSecret: `${clientSecret}x` }),
    });
    expect(wrong.status).toBe(401);
  });

  it("forwards identities.list and returns the admin identity", async () => {
    const { cookie } = await logIn(bff, adminToken);
    const res = await listIdentities(cookie);
    expect(res.status).toBe(200);
    const body = endpoints["identities.list"].response.parse(res.json);
    expect(body.identities.map((m) => [m.identity.id, m.identity.name, m.role])).toContainEqual([
      service.keyhold.adminIdentityId,
      "admin",
      "admin",
    ]);
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("forwards the batch endpoints (a DELETE with a body too) and the list's value digests", async () => {
    const { cookie } = await logIn(bff, adminToken);
    const json = (method: string, path: string, body: unknown) =>
      bff.send({ method, path, headers: { ...JSON_CSRF, cookie }, body: JSON.stringify(body) });
    const made = await json("POST", "/api/v2/workspace", { projectName: "Batch via BFF", slug: "batch-via-bff" });
    expect(made.status).toBe(200);
    const workspaceId = endpoints["projects.create"].response.parse(made.json).project.id;
    const where = { workspaceId, environment: "dev", secretPath: "/" };
    const batchPath = endpoints["secrets.batchCreate"].path;
    const created = await json("POST", batchPath, {
      ...where,
      secrets: [
        { secretKey: "VIA_BFF_A", secretValue: "same" },
        { secretKey: "VIA_BFF_B", secretValue: "same" },
      ],
    });
    expect(created.status).toBe(200);
    expect(endpoints["secrets.batchCreate"].response.parse(created.json).secrets).toHaveLength(2);
    const updated = await json("PATCH", batchPath, {
      ...where,
      mode: "upsert",
      secrets: [
        { secretKey: "VIA_BFF_B", secretValue: "other" },
        { secretKey: "VIA_BFF_C", secretValue: "same" },
      ],
    });
    expect(updated.status).toBe(200);
    const list = await bff.send({
      path: `/api/v3/secrets/raw?workspaceId=${workspaceId}&environment=dev&secretPath=%2F&viewSecretValue=false&includeValueDigests=true`,
      headers: { ...CSRF, cookie },
    });
    expect(list.status).toBe(200);
    const digests = Object.fromEntries(
      endpoints["secrets.list"].response
        .parse(list.json)
        .secrets.map((s) => [s.secretKey, [s.secretValue, s.secretValueDigest]]),
    );
    expect(digests.VIA_BFF_A?.[0]).toBe("<hidden-by-infisical>");
    expect(digests.VIA_BFF_A?.[1]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(digests.VIA_BFF_C?.[1]).toBe(digests.VIA_BFF_A?.[1]);
    expect(digests.VIA_BFF_B?.[1]).not.toBe(digests.VIA_BFF_A?.[1]);
    const deleted = await json("DELETE", batchPath, {
      ...where,
      secrets: [{ secretKey: "VIA_BFF_A" }, { secretKey: "VIA_BFF_B" }, { secretKey: "VIA_BFF_C" }],
    });
    expect(deleted.status).toBe(200);
    expect(endpoints["secrets.batchDelete"].response.parse(deleted.json).secrets.map((s) => s.secretKey)).toEqual([
      "VIA_BFF_A",
      "VIA_BFF_B",
      "VIA_BFF_C",
    ]);
  });

  it("takes a 2 MiB change set through to the service in one commit; other endpoints keep the 1 MiB limit", async () => {
    const { cookie } = await logIn(bff, adminToken);
    const json = (method: string, path: string, body: unknown) =>
      bff.send({ method, path, headers: { ...JSON_CSRF, cookie }, body: JSON.stringify(body) });
    const made = await json("POST", "/api/v2/workspace", { projectName: "Big commit", slug: "big-commit-via-bff" });
    const projectId = endpoints["projects.create"].response.parse(made.json).project.id;
    const value = "v".repeat(4096);
    const body = {
      projectId,
      environment: "dev",
      secretPath: "/",
      message: "Import 512 long values",
      changes: {
        secrets: { create: Array.from({ length: 512 }, (_, i) => ({ secretKey: `BIG_${i}`, secretValue: value })) },
      },
    };
    expect(JSON.stringify(body).length).toBeGreaterThan(2 * 1024 * 1024);
    const res = await json("POST", endpoints["pitBatch.commit"].path, body);
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    const answer = endpoints["pitBatch.commit"].response.parse(res.json);
    expect(answer.secrets.created).toHaveLength(512);
    expect(answer.commit.message).toBe("Import 512 long values");
    const tooBig = await json("POST", "/api/v2/workspace", { projectName: "x".repeat(2 * 1024 * 1024) });
    expect(tooBig.status).toBe(413);
  });

  it("passes the service's answers on as the service sent them: both are of one contract revision", async () => {
    const { cookie } = await logIn(bff, adminToken);
    const direct = await fetch(`${serviceOrigin}/api/v1/identities?orgId=${service.keyhold.orgId}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(direct.status).toBe(200);
    expect(direct.headers.get(CONTRACT_REVISION_HEADER)).toBe(contractRevision());
    const res = await listIdentities(cookie);
    expect(res.status).toBe(200);
    expect(res.text).toBe(await direct.text());
    expect(res.headers[CONTRACT_REVISION_HEADER]).toBeUndefined();
  });

  it("compresses a long answer for a browser that accepts brotli or gzip, and only then", async () => {
    const { cookie } = await logIn(bff, adminToken);
    for (let n = 0; n < 12; n++) {
      const created = await fetch(`${serviceOrigin}/api/v1/identities`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ name: `compressed-${n}`, organizationId: service.keyhold.orgId, role: "member" }),
      });
      expect(created.status).toBe(200);
    }
    const path = `/api/v1/identities?orgId=${service.keyhold.orgId}`;
    const plain = await bff.send({ path, headers: { ...CSRF, cookie } });
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Buffer.byteLength(plain.text)).toBeGreaterThan(1024);

    for (const [encoding, inflate] of [
      ["br", brotliDecompressSync],
      ["gzip", gunzipSync],
    ] as const) {
      const raw = await rawGet(path, { ...CSRF, cookie, "accept-encoding": encoding });
      expect(raw.status).toBe(200);
      expect(raw.headers["content-encoding"]).toBe(encoding);
      expect(raw.headers.vary).toContain("accept-encoding");
      expect(raw.headers["cache-control"]).toBe("no-store");
      expect(raw.headers["content-security-policy"]).toContain("default-src 'none'");
      expect(raw.body.length).toBeLessThan(Buffer.byteLength(plain.text) / 2);
      expect(inflate(raw.body).toString("utf8")).toBe(plain.text);
    }

    // A short answer goes out as it is, whatever the browser accepts.
    const one = await rawGet(`/api/v1/identities/${service.keyhold.adminIdentityId}`, {
      ...CSRF,
      cookie,
      "accept-encoding": "br, gzip",
    });
    expect(one.status).toBe(200);
    expect(one.body.length).toBeLessThan(1024);
    expect(one.headers["content-encoding"]).toBeUndefined();
  });

  it("answers a request that breaks the contract with 422 in the service's envelope", async () => {
    const { cookie } = await logIn(bff, adminToken);
    const res = await bff.send({ path: "/api/v1/identities", headers: { ...CSRF, cookie } });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ statusCode: 422, error: errorNames.validation });
  });

  it("refuses a token the service does not accept with 401", async () => {
    const [header, , signature] = adminToken.split(".");
    const forged = `${header}.${adminToken.split(".")[1]}.${signature?.split("").reverse().join("")}`;
    const res = await bff.send({
      method: "POST",
      path: "/bff/login",
      headers: JSON_CSRF,
      body: JSON.stringify({ accessToken: forged }),
    });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: errorNames.unauthorized, message: /access token was not accepted/ });
    expect(res.text).not.toContain(forged);
    expect(sessionCookieFrom(res)).toBeUndefined();
  });

  it("does not adopt a planted session id", async () => {
    const planted = `__Host-keyhold=${"x".repeat(43)}`;
    const res = await bff.send({
      method: "POST",
      path: "/bff/login",
      headers: { ...JSON_CSRF, cookie: planted },
      body: JSON.stringify({ accessToken: adminToken }),
    });
    const issued = sessionCookieFrom(res) ?? "";
    expect(issued).toMatch(/^__Host-keyhold=[A-Za-z0-9_-]{43}$/);
    expect(issued).not.toBe(planted);
    expect((await listIdentities(planted)).status).toBe(401);
    expect((await listIdentities(issued)).status).toBe(200);
  });

  it("replaying the cookie after logout gets 401", async () => {
    const { cookie } = await logIn(bff, adminToken);
    const out = await bff.send({ method: "POST", path: "/bff/logout", headers: { ...CSRF, cookie } });
    expect(out.status).toBe(204);
    expect(out.headers["clear-site-data"]).toBe('"cache","storage"');
    expect((await listIdentities(cookie)).status).toBe(401);
    expect((await session(cookie)).status).toBe(401);
  });

  it("enforces the idle timeout", async () => {
    const { cookie } = await logIn(bff, adminToken);
    now += 15 * MINUTE - 1000;
    expect((await listIdentities(cookie)).status).toBe(200);
    now += 15 * MINUTE + 1000;
    expect((await listIdentities(cookie)).status).toBe(401);
  });

  it("enforces the absolute timeout", async () => {
    const { cookie } = await logIn(bff, adminToken);
    const signedInAt = now;
    for (let i = 0; i < 47; i++) {
      now += 10 * MINUTE;
      expect((await session(cookie)).status).toBe(200);
    }
    now = signedInAt + 8 * 60 * MINUTE + 1000;
    expect((await listIdentities(cookie)).status).toBe(401);
  });

  it("rate-limits sign-in attempts", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await bff.send({
        method: "POST",
        path: "/bff/login",
        headers: JSON_CSRF,
        body: JSON.stringify({ accessToken: "wrong" }),
      });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it("ends the session when the service revokes its token", async () => {
    const { cookie: admin } = await logIn(bff, adminToken);
    const post = (path: string, body: unknown) =>
      bff.send({ method: "POST", path, headers: { ...JSON_CSRF, cookie: admin }, body: JSON.stringify(body) });

    const created = await post("/api/v1/identities", {
      name: "ci-runner",
      organizationId: service.keyhold.orgId,
      role: "admin",
    });
    expect(created.status).toBe(200);
    const { identity } = endpoints["identities.create"].response.parse(created.json);
    expect((await post(`/api/v1/auth/token-auth/identities/${identity.id}`, {})).status).toBe(200);
    const issued = await post(`/api/v1/auth/token-auth/identities/${identity.id}/tokens`, { name: "bff-test" });
    const { accessToken } = endpoints["tokenAuth.createToken"].response.parse(issued.json);

    const { cookie: runner } = await logIn(bff, accessToken);
    expect((await listIdentities(runner)).status).toBe(200);
    const revoked = await bff.send({
      method: "DELETE",
      path: `/api/v1/auth/token-auth/identities/${identity.id}`,
      headers: { ...CSRF, cookie: admin },
    });
    expect(revoked.status).toBe(200);

    const after = await listIdentities(runner);
    expect(after.status).toBe(401);
    expect(after.headers["set-cookie"]?.[0]).toMatch(/^__Host-keyhold=;/);
    expect((await session(runner)).status).toBe(401);
  });
});
