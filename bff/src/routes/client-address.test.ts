import { mkdtemp, readFile, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bffPaths, buildPath, type EndpointId, endpoints, errorNames } from "@keyhold/contract";
import { buildApp as buildService } from "@keyhold/service/app";
import { loadConfig as loadServiceConfig } from "@keyhold/service/config";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CSRF,
  JSON_CSRF,
  type RawRequest,
  type RawResponse,
  sessionCookieFrom,
  startBff,
  type TestBff,
  testConfig,
} from "../test/harness.ts";

/**
 * The browser's address through the BFF to the real service, which trusts the BFF (it connects
 * from 127.0.0.1) as a proxy. Browsers connect from other loopback addresses (Linux answers on all
 * of 127/8); the token may be used from 127.0.0.3 only.
 */

let dataDir: string;
let service: FastifyInstance;
let bff: TestBff;
let token: string;
let serviceOrigin: string;

async function serviceCall(id: EndpointId, adminToken: string, params: Record<string, string>, body: unknown) {
  const spec = endpoints[id];
  const res = await service.inject({
    method: spec.method,
    url: buildPath(spec.path, params),
    headers: { authorization: `Bearer ${adminToken}` },
    payload: body as object,
  });
  expect(res.statusCode, id).toBe(200);
  return res.json() as Record<string, unknown>;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "keyhold-bff-"));
  service = await buildService({
    config: loadServiceConfig({ KEYHOLD_DATA_DIR: dataDir, LOG_LEVEL: "silent", KEYHOLD_TRUSTED_PROXIES: "127.0.0.1" }),
  });
  serviceOrigin = await service.listen({ port: 0, host: "127.0.0.1" });
  const adminToken = (await readFile(join(dataDir, "admin-token"), "utf8")).trim();
  const created = await serviceCall(
    "identities.create",
    adminToken,
    {},
    {
      name: "browser-bound",
      organizationId: service.keyhold.orgId,
      role: "member",
    },
  );
  const identityId = (created.identity as { id: string }).id;
  await serviceCall(
    "tokenAuth.attach",
    adminToken,
    { identityId },
    {
      accessTokenTrustedIps: [{ ipAddress: "127.0.0.3/32" }],
    },
  );
  token = (await serviceCall("tokenAuth.createToken", adminToken, { identityId }, {})).accessToken as string;
  bff = await startBff(testConfig({ upstreamOrigin: serviceOrigin }));
});
afterAll(async () => {
  await bff?.close();
  await service?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A request to the BFF whose connection comes from `localAddress`. */
function sendFrom(localAddress: string, req: RawRequest, target: TestBff = bff): Promise<RawResponse> {
  const address = target.app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined) headers["content-length"] = String(Buffer.byteLength(req.body));
    const outgoing = httpRequest({
      host: "127.0.0.1",
      port,
      localAddress,
      method: req.method ?? "GET",
      path: req.path,
      headers,
    });
    outgoing.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: text ? JSON.parse(text) : undefined });
      });
    });
    outgoing.on("error", reject);
    outgoing.end(req.body);
  });
}

const logInFrom = (localAddress: string, headers: Record<string, string> = {}) =>
  sendFrom(localAddress, {
    method: "POST",
    path: "/bff/login",
    headers: { ...JSON_CSRF, ...headers },
    body: JSON.stringify({ accessToken: token }),
  });

describe("the browser's address reaches the service's trusted-IP check", () => {
  it("a browser at the trusted address signs in and its requests are admitted", async () => {
    const res = await logInFrom("127.0.0.3");
    expect(res.status).toBe(200);
    const cookie = sessionCookieFrom(res) ?? "";
    const identities = await sendFrom("127.0.0.3", {
      path: `/api/v1/identities?orgId=${service.keyhold.orgId}`,
      headers: { ...CSRF, cookie },
    });
    expect(identities.status).toBe(200);
  });

  it("a browser elsewhere is refused, though the BFF itself connects from 127.0.0.1", async () => {
    const res = await logInFrom("127.0.0.2");
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: errorNames.forbidden, message: /IP address/ });
  });

  it("a browser cannot claim the trusted address with its own X-Forwarded-For", async () => {
    for (const forged of ["127.0.0.3", "127.0.0.1", "127.0.0.3, 127.0.0.1"]) {
      const res = await logInFrom("127.0.0.2", { "x-forwarded-for": forged });
      expect(res.status, forged).toBe(403);
    }
  });
});

const clientAddressFrom = (localAddress: string, cookie: string, headers: Record<string, string> = {}, target = bff) =>
  sendFrom(localAddress, { path: bffPaths.clientAddress, headers: { ...CSRF, cookie, ...headers } }, target);

describe('GET /bff/client-address: the address the service checks, for "Add my address"', () => {
  it("answers the browser's own address, which the service admitted, and that no proxy is trusted", async () => {
    const cookie = sessionCookieFrom(await logInFrom("127.0.0.3")) ?? "";
    const res = await clientAddressFrom("127.0.0.3", cookie);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      address: "127.0.0.3",
      connectedFrom: "127.0.0.3",
      trustedProxies: [],
      viaTrustedProxy: false,
    });
  });

  it("ignores an X-Forwarded-For the browser wrote itself, as forwarding does", async () => {
    const cookie = sessionCookieFrom(await logInFrom("127.0.0.3")) ?? "";
    const res = await clientAddressFrom("127.0.0.3", cookie, { "x-forwarded-for": "192.0.2.1" });
    expect(res.json).toMatchObject({ address: "127.0.0.3", viaTrustedProxy: false });
  });

  it("needs a session and the CSRF header", async () => {
    expect((await sendFrom("127.0.0.3", { path: bffPaths.clientAddress, headers: CSRF })).status).toBe(401);
    const cookie = sessionCookieFrom(await logInFrom("127.0.0.3")) ?? "";
    expect((await sendFrom("127.0.0.3", { path: bffPaths.clientAddress, headers: { cookie } })).status).toBe(401);
  });
});

describe("behind a proxy the BFF trusts (KEYHOLD_TRUSTED_PROXIES)", () => {
  let proxied: TestBff;
  beforeAll(async () => {
    proxied = await startBff(testConfig({ upstreamOrigin: serviceOrigin, trustedProxies: ["127.0.0.4/32"] }));
  });
  afterAll(async () => proxied?.close());

  const logInThrough = (localAddress: string, forwardedFor: string) =>
    sendFrom(
      localAddress,
      {
        method: "POST",
        path: "/bff/login",
        headers: { ...JSON_CSRF, "x-forwarded-for": forwardedFor },
        body: JSON.stringify({ accessToken: token }),
      },
      proxied,
    );

  it("the proxy's X-Forwarded-For names the browser the service checks", async () => {
    expect((await logInThrough("127.0.0.4", "127.0.0.3")).status).toBe(200);
    expect((await logInThrough("127.0.0.4", "127.0.0.2")).status).toBe(403);
  });

  it("only the last hop the proxy added counts, not what the browser claimed before it", async () => {
    expect((await logInThrough("127.0.0.4", "127.0.0.3, 127.0.0.2")).status).toBe(403);
  });

  it("GET /bff/client-address answers the address from the proxy's X-Forwarded-For and the proxy setting", async () => {
    const cookie = sessionCookieFrom(await logInThrough("127.0.0.4", "127.0.0.3")) ?? "";
    const res = await clientAddressFrom("127.0.0.4", cookie, { "x-forwarded-for": "127.0.0.3" }, proxied);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      address: "127.0.0.3",
      connectedFrom: "127.0.0.4",
      trustedProxies: ["127.0.0.4/32"],
      viaTrustedProxy: true,
    });
  });

  it("anyone but the trusted proxy is judged by its own address", async () => {
    expect((await logInThrough("127.0.0.2", "127.0.0.3")).status).toBe(403);
  });
});
