import { Writable } from "node:stream";
import { BffSessionSchema, errorNames } from "@keyhold/contract";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemorySessionStore } from "../session/store.ts";
import { CSRF, JSON_CSRF, logIn, sessionCookieFrom, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";
import { fakeAccessToken, IDENTITY_ID, membership, ORG_ID } from "../test/samples.ts";

const MINUTE = 60_000;
let upstream: RecordingUpstream;
let bff: TestBff;
let now: number;
let logLines: string[];

beforeAll(async () => {
  upstream = await startRecordingUpstream();
});
afterAll(() => upstream.close());
beforeEach(async () => {
  now = Date.parse("2030-01-01T09:00:00.000Z");
  logLines = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString("utf8"));
      done();
    },
  });
  upstream.respond(() => ({ status: 200, body: { identity: membership() } }));
  upstream.requests.length = 0;
  bff = await startBff(testConfig({ upstreamOrigin: upstream.origin, loginRateLimit: { max: 5, windowMs: MINUTE } }), {
    clock: () => now,
    logger: pino({ level: "trace" }, sink),
  });
});
afterEach(() => bff.close());

const login = (body: unknown, headers: Record<string, string> = JSON_CSRF) =>
  bff.send({ method: "POST", path: "/bff/login", headers, body: JSON.stringify(body) });
const session = (cookie: string) => bff.send({ path: "/bff/session", headers: { ...CSRF, cookie } });

describe("POST /bff/login", () => {
  it("asks the upstream who the token belongs to and starts a session", async () => {
    const token = fakeAccessToken();
    const res = await login({ accessToken: token });
    expect(res.status).toBe(200);
    expect(BffSessionSchema.parse(res.json)).toEqual({
      identity: { id: IDENTITY_ID, name: "admin", role: "admin" },
      organization: { id: ORG_ID },
      expiresAt: "2030-01-01T17:00:00.000Z",
      idleExpiresAt: "2030-01-01T09:15:00.000Z",
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
    });
    expect(upstream.requests.map((r) => `${r.method} ${r.url} ${r.headers.authorization}`)).toEqual([
      `GET /api/v1/identities/${IDENTITY_ID} Bearer ${token}`,
    ]);
    expect(res.text).not.toContain(token);
  });

  it("sends the browser's address upstream as X-Forwarded-For, replacing the one it sent", async () => {
    const res = await login({ accessToken: fakeAccessToken() }, { ...JSON_CSRF, "x-forwarded-for": "10.9.9.9" });
    expect(res.status).toBe(200);
    expect(upstream.requests.map((r) => r.headers["x-forwarded-for"])).toEqual(["127.0.0.1"]);
  });

  it("sets a __Host- cookie: HttpOnly, Secure, SameSite=Strict, Path=/, no Domain or Max-Age", async () => {
    const res = await login({ accessToken: fakeAccessToken() });
    const [header] = res.headers["set-cookie"] ?? [];
    const [pair, ...attributes] = (header ?? "").split("; ");
    expect(pair).toMatch(/^__Host-keyhold=[A-Za-z0-9_-]{43}$/);
    expect(attributes.sort()).toEqual(["HttpOnly", "Path=/", "SameSite=Strict", "Secure"]);
  });

  it.each([
    ["not a JWT", "not-a-jwt"],
    [
      "a JWT without identityId",
      `${Buffer.from("{}").toString("base64url")}.${Buffer.from('{"sub":"x"}').toString("base64url")}.c2ln`,
    ],
    ["a JWT whose identityId is a path", fakeAccessToken("../../admin")],
  ])("refuses %s with 401 without asking upstream or echoing it", async (_, token) => {
    const res = await login({ accessToken: token });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ statusCode: 401, error: errorNames.unauthorized, message: /not accepted/ });
    expect(res.text).not.toContain(token);
    expect(upstream.requests).toEqual([]);
  });

  it.each([401, 403, 404])("maps an upstream %i to 401", async (status) => {
    upstream.respond(() => ({
      status,
      body: { reqId: "req-x", statusCode: status, message: "no", error: "TokenError" },
    }));
    const token = fakeAccessToken();
    const res = await login({ accessToken: token });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: errorNames.unauthorized, message: /access token was not accepted/ });
    expect(res.text).not.toContain(token);
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("explains a valid token whose identity may not read identities (403 PermissionDenied)", async () => {
    upstream.respond(() => ({
      status: 403,
      body: { reqId: "req-x", statusCode: 403, message: "no", error: errorNames.permissionDenied },
    }));
    const res = await login({ accessToken: fakeAccessToken() });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({
      error: errorNames.permissionDenied,
      message: /member or admin organization role/,
    });
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("passes on why the upstream forbids a token (403 ForbiddenError)", async () => {
    upstream.respond(() => ({
      status: 403,
      body: { reqId: "req-x", statusCode: 403, message: "Not from this address", error: errorNames.forbidden },
    }));
    const res = await login({ accessToken: fakeAccessToken() });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({
      error: errorNames.forbidden,
      message: /refused this access token: Not from this address/,
    });
  });

  it("refuses a client ID and secret the upstream does not accept, without a session", async () => {
    upstream.respond(() => ({
      status: 401,
      body: { statusCode: 401, error: "UnauthorizedError", message: "Invalid credentials" },
    }));
    const res = await login({ clientId: "cc9f833d-d361-4350-bdc7-d5dec39f1155", clientSecret: "wrong" });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({
      error: errorNames.unauthorized,
      message: /client ID and client secret were not accepted/,
    });
    expect(sessionCookieFrom(res)).toBeUndefined();
    expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /api/v1/auth/universal-auth/login"]);
    expect(upstream.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("validates the body (422)", async () => {
    const res = await login({ accessToken: "  " });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ error: errorNames.validation, message: [{ message: "Paste an access token" }] });
  });

  it("does not adopt a session id the browser arrives with (fixation)", async () => {
    const planted = `__Host-keyhold=${"A".repeat(43)}`;
    const res = await login({ accessToken: fakeAccessToken() }, { ...JSON_CSRF, cookie: planted });
    const issued = sessionCookieFrom(res);
    expect(issued).toMatch(/^__Host-keyhold=/);
    expect(issued).not.toBe(planted);
    expect((await session(planted)).status).toBe(401);
    expect((await session(issued ?? "")).status).toBe(200);
  });

  it("ends the session a browser had before signing in again", async () => {
    const { cookie: first } = await logIn(bff, fakeAccessToken());
    const res = await login({ accessToken: fakeAccessToken() }, { ...JSON_CSRF, cookie: first });
    const second = sessionCookieFrom(res) ?? "";
    expect(second).toMatch(/^__Host-keyhold=.{43}$/);
    expect(second).not.toBe(first);
    expect((await session(first)).status).toBe(401);
    expect((await session(second)).status).toBe(200);
  });

  it("limits sign-in attempts per IP (429 with Retry-After)", async () => {
    for (let i = 0; i < 5; i++) expect((await login({ accessToken: "bad" })).status).toBe(401);
    const res = await login({ accessToken: fakeAccessToken() });
    expect(res.status).toBe(429);
    expect(res.headers["retry-after"]).toBe("60");
    expect(res.json).toMatchObject({
      statusCode: 429,
      error: errorNames.rateLimit,
      message: /Try again in 60 seconds/,
    });
    expect(res.json).toHaveProperty("reqId", expect.stringMatching(/^req-[A-Za-z0-9]{14}$/));
  });

  it("never logs the token, the cookie or the body", async () => {
    const token = fakeAccessToken();
    const { cookie } = await logIn(bff, token);
    await session(cookie);
    await login({ accessToken: `${token}x` });
    const log = logLines.join("");
    expect(log).toContain("/bff/login");
    expect(log).not.toContain(token.split(".")[2]);
    expect(log).not.toContain(cookie.split("=")[1]);
  });
});

describe("GET /bff/session", () => {
  it("answers 401 without a session", async () => {
    const res = await bff.send({ path: "/bff/session", headers: CSRF });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ statusCode: 401, error: errorNames.unauthorized });
  });

  it("slides the idle timeout on use", async () => {
    const { cookie } = await logIn(bff, fakeAccessToken());
    now += 14 * MINUTE;
    const res = await session(cookie);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ idleExpiresAt: "2030-01-01T09:29:00.000Z" });
    now += 14 * MINUTE;
    expect((await session(cookie)).status).toBe(200);
  });

  it("ends the session after 15 idle minutes", async () => {
    const { cookie } = await logIn(bff, fakeAccessToken());
    now += 15 * MINUTE + 1000;
    const res = await session(cookie);
    expect(res.status).toBe(401);
    expect(res.headers["set-cookie"]?.[0]).toMatch(/^__Host-keyhold=;/);
  });

  it("ends the session after 8 hours however active it is", async () => {
    const { cookie } = await logIn(bff, fakeAccessToken());
    for (let elapsed = 0; elapsed < 8 * 60 - 10; elapsed += 10) {
      now += 10 * MINUTE;
      expect((await session(cookie)).status, `after ${elapsed + 10} min`).toBe(200);
    }
    now = Date.parse("2030-01-01T17:00:01.000Z");
    expect((await session(cookie)).status).toBe(401);
  });
});

describe("POST /bff/logout", () => {
  it("ends the session server-side, expires the cookie and clears site data", async () => {
    const { cookie } = await logIn(bff, fakeAccessToken());
    const res = await bff.send({ method: "POST", path: "/bff/logout", headers: { ...CSRF, cookie } });
    expect(res.status).toBe(204);
    expect(res.headers["clear-site-data"]).toBe('"cache","storage"');
    expect(res.headers["set-cookie"]?.[0]).toMatch(/^__Host-keyhold=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970/);
    expect((await session(cookie)).status).toBe(401);
  });

  it("needs X-CSRF like everything else", async () => {
    const { cookie } = await logIn(bff, fakeAccessToken());
    const res = await bff.send({ method: "POST", path: "/bff/logout", headers: { cookie } });
    expect(res.status).toBe(401);
    expect((await session(cookie)).status).toBe(200);
  });
});

describe("the session store", () => {
  it("drops expired sessions it is never asked for again", async () => {
    let t = 0;
    const store = new MemorySessionStore(() => t);
    const base = {
      accessToken: "t",
      identity: { id: "i", name: "n", role: "r" },
      orgId: "o",
      createdAt: 0,
      lastUsedAt: 0,
    };
    for (let i = 0; i < 99; i++) await store.set({ ...base, id: `old-${i}` }, 10);
    t = 11;
    await store.set({ ...base, id: "fresh" }, 100);
    expect(store.size).toBe(1);
    expect(await store.get("fresh")).toEqual({ ...base, id: "fresh" });
  });
});

describe("sessions signed in with a client ID and secret", () => {
  const CLIENT = { clientId: "cc9f833d-d361-4350-bdc7-d5dec39f1155", clientSecret: "s3cret-client-value" };
  const tokens = [fakeAccessToken(), fakeAccessToken(), fakeAccessToken()];
  let renewals: number;
  let refuseRenewal: boolean;

  beforeEach(() => {
    renewals = 0;
    refuseRenewal = false;
    upstream.respond((req) => {
      if (req.url === "/api/v1/auth/universal-auth/login") {
        return {
          status: 200,
          body: { accessToken: tokens[0], expiresIn: 60, accessTokenMaxTTL: 600, tokenType: "Bearer" },
        };
      }
      if (req.url === "/api/v1/auth/token/renew") {
        if (refuseRenewal) {
          return { status: 401, body: { statusCode: 401, error: "UnauthorizedError", message: "Token past max TTL" } };
        }
        renewals += 1;
        return {
          status: 200,
          body: { accessToken: tokens[renewals], expiresIn: 60, accessTokenMaxTTL: 600, tokenType: "Bearer" },
        };
      }
      return { status: 200, body: { identity: membership() } };
    });
  });

  const signIn = async () => {
    const res = await login(CLIENT);
    expect(res.status).toBe(200);
    const cookie = sessionCookieFrom(res);
    if (!cookie) throw new Error("no session cookie");
    return cookie;
  };
  const bearersUsed = () =>
    upstream.requests.filter((r) => r.url.startsWith("/api/v1/identities/")).map((r) => r.headers.authorization);

  it("signs in upstream with the client secret, which is never logged, and uses the token it got", async () => {
    const cookie = await signIn();
    expect(upstream.requests[0]).toMatchObject({ method: "POST", url: "/api/v1/auth/universal-auth/login" });
    expect(JSON.parse(upstream.requests[0]?.body ?? "{}")).toEqual(CLIENT);
    expect((await session(cookie)).status).toBe(200);
    expect(bearersUsed()).toEqual([`Bearer ${tokens[0]}`]);
    expect(logLines.join("")).not.toContain(CLIENT.clientSecret);
    expect(logLines.join("")).not.toContain(tokens[0]);
  });

  it("renews the token once two thirds of its life have passed: one renewal for requests arriving together", async () => {
    const cookie = await signIn();
    upstream.requests.length = 0;
    now += 41_000;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        bff.send({ path: `/api/v1/identities/${IDENTITY_ID}`, headers: { ...CSRF, cookie } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const renewCalls = upstream.requests.filter((r) => r.url === "/api/v1/auth/token/renew");
    expect(renewCalls).toHaveLength(1);
    expect(JSON.parse(renewCalls[0]?.body ?? "{}")).toEqual({ accessToken: tokens[0] });
    expect(renewCalls[0]?.headers.authorization).toBeUndefined();
    expect(bearersUsed()).toEqual(Array(5).fill(`Bearer ${tokens[1]}`));
    // Not due again until two thirds of the new token's life.
    now += 10_000;
    expect((await session(cookie)).status).toBe(200);
    expect(renewals).toBe(1);
  });

  it("ends the session cleanly when the upstream refuses to renew", async () => {
    const cookie = await signIn();
    now += 41_000;
    refuseRenewal = true;
    const res = await bff.send({ path: `/api/v1/identities/${IDENTITY_ID}`, headers: { ...CSRF, cookie } });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ message: /could not be renewed/ });
    expect(sessionCookieFrom(res)).toBeUndefined();
    expect(res.headers["set-cookie"]?.some((c) => c.startsWith("__Host-keyhold=;"))).toBe(true);
    refuseRenewal = false;
    expect((await session(cookie)).status).toBe(401);
  });
});
