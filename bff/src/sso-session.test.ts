import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BffSessionSchema, OidcSetupSchema, OidcTestResultSchema, SignInOptionsSchema } from "@keyhold/contract";
import { exportJWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemorySessionStore } from "./session/store.ts";
import { CSRF, JSON_CSRF, logIn, type TestBff } from "./test/harness.ts";
import type { TestOidcProvider } from "./test/oidc-provider.ts";
import type { TestBrowser } from "./test/sso-browser.ts";
import {
  authorizationResponse,
  browserFor,
  CLIENT_ID,
  CLIENT_SECRET,
  PUBLIC_URL,
  people,
  type RealService,
  signInThroughProvider,
  ssoIdentity,
  startProvider,
  startService,
  startSsoBff,
} from "./test/sso-setup.ts";

const eve = { email: "eve@acme.test", password: "eve-pass" };
const PKJWT_CLIENT = "keyhold-console-signed";
const SESSION_COOKIE = "__Host-keyhold";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
let keyDir: string;
let service: RealService;
let provider: TestOidcProvider;
let identityId: string;

beforeAll(async () => {
  keyDir = await mkdtemp(join(tmpdir(), "keyhold-sso-key-"));
  await writeFile(join(keyDir, "client.pem"), privateKey.export({ type: "pkcs8", format: "pem" }));
  await writeFile(
    join(keyDir, "client.jwk"),
    JSON.stringify({ ...privateKey.export({ format: "jwk" }), kid: "console-1" }),
  );
  const jwk = { ...(await exportJWK(publicKey)), alg: "RS256", use: "sig", kid: "console-1" };
  service = await startService();
  provider = await startProvider({
    users: people,
    clients: [
      {
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        redirectUris: [`${PUBLIC_URL}/bff/oidc/callback`],
        postLogoutRedirectUris: [`${PUBLIC_URL}/sign-in`],
      },
      { clientId: PKJWT_CLIENT, jwks: { keys: [jwk] }, redirectUris: [`${PUBLIC_URL}/bff/oidc/callback`] },
    ],
  });
  // Upstream tokens that live a minute: the BFF renews them after 40 s (two thirds).
  identityId = await ssoIdentity(service, provider, { name: "short-lived", accessTokenTTL: 60 });
});
afterAll(async () => {
  await Promise.all([service?.close(), provider?.close(), rm(keyDir, { recursive: true, force: true })]);
});

interface Running {
  bff: TestBff;
  sessions: MemorySessionStore;
  browser: TestBrowser;
  advance(ms: number): void;
  get(path: string): ReturnType<TestBff["send"]>;
  stored(): Promise<Awaited<ReturnType<MemorySessionStore["get"]>>>;
}

async function running(env: Record<string, string>): Promise<Running> {
  let now = Date.parse("2030-06-01T08:00:00.000Z");
  const sessions = new MemorySessionStore(() => now);
  const { bff } = await startSsoBff(
    service,
    { KEYHOLD_OIDC_ISSUER: provider.issuer, KEYHOLD_OIDC_CLIENT_SECRET: CLIENT_SECRET, ...env },
    { sessionStore: sessions, clock: () => now },
  );
  const browser = browserFor(bff);
  return {
    bff,
    sessions,
    browser,
    advance: (ms) => {
      now += ms;
    },
    get: (path) => bff.send({ path, headers: { ...CSRF, cookie: browser.consoleCookieHeader() } }),
    stored: () => sessions.get(browser.cookies(PUBLIC_URL).get(SESSION_COOKIE) ?? ""),
  };
}

const identitiesPath = () => `/api/v1/identities?orgId=${service.orgId}`;
const refreshGrants = () => provider.tokenRequests.filter((r) => r.grantType === "refresh_token");

describe("session life", () => {
  it("renews the upstream token with the provider's refresh token, one renewal for concurrent requests", async () => {
    const r = await running({ KEYHOLD_OIDC_IDENTITY_ID: identityId });
    try {
      await signInThroughProvider(r.browser, eve);
      const first = await r.stored();
      expect(first?.tokenRenewAt).toBe(Date.parse("2030-06-01T08:00:40.000Z"));
      const before = refreshGrants().length;

      r.advance(41_000);
      const answers = await Promise.all([r.get(identitiesPath()), r.get(identitiesPath()), r.get("/bff/session")]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(refreshGrants().slice(before)).toEqual([{ grantType: "refresh_token", status: 200 }]);
      const second = await r.stored();
      expect(second?.accessToken).not.toBe(first?.accessToken);
      expect(second?.tokenRenewAt).toBe(Date.parse("2030-06-01T08:01:21.000Z"));
      expect(BffSessionSchema.parse(answers[2]?.json).person?.email).toBe("eve@acme.test");

      // And again, with the refresh token the provider rotated (or kept).
      r.advance(41_000);
      expect((await r.get(identitiesPath())).status).toBe(200);
      expect(
        refreshGrants()
          .slice(before)
          .map((g) => g.status),
      ).toEqual([200, 200]);
    } finally {
      await r.bff.close();
    }
  });

  it("signs out a person disabled at the provider on the first request after renewal fails", async () => {
    const r = await running({ KEYHOLD_OIDC_IDENTITY_ID: identityId });
    const dave = provider.users.get("dave@acme.test");
    try {
      await signInThroughProvider(r.browser, { email: "dave@acme.test", password: "dave-pass" });
      expect((await r.get(identitiesPath())).status).toBe(200);
      if (dave) dave.disabled = true;
      // Until the token is due, the session lives on (the upstream token is still valid).
      expect((await r.get(identitiesPath())).status).toBe(200);

      r.advance(41_000);
      const refused = await r.get(identitiesPath());
      expect(refused.status).toBe(401);
      expect((refused.json as { message: string }).message).toBe("Your sign-in at Acme ID has ended. Sign in again.");
      expect(refreshGrants().at(-1)).toEqual({ grantType: "refresh_token", status: 400 });
      expect(r.sessions.size).toBe(0);
      expect((await r.get("/bff/session")).status).toBe(401);
    } finally {
      if (dave) dave.disabled = false;
      await r.bff.close();
    }
  });

  it("signs out at the provider too: the refresh token is revoked there", async () => {
    const r = await running({ KEYHOLD_OIDC_IDENTITY_ID: identityId });
    try {
      await signInThroughProvider(r.browser, eve);
      const refreshToken = (await r.stored())?.oidc?.refreshToken ?? "";
      expect(refreshToken).toMatch(/./);
      const out = await r.bff.send({
        method: "POST",
        path: "/bff/logout",
        headers: { ...CSRF, cookie: r.browser.consoleCookieHeader() },
      });
      expect(out.status).toBe(200);
      expect(r.sessions.size).toBe(0);

      // The client itself can no longer use it.
      const grant = await fetch(`${provider.issuer}/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
      });
      expect(grant.status).toBe(400);
      expect(((await grant.json()) as { error: string }).error).toBe("invalid_grant");
    } finally {
      await r.bff.close();
    }
  });

  it.each(["client.pem", "client.jwk"])("signs in with a private_key_jwt client (the key from %s)", async (file) => {
    const signed = await ssoIdentity(service, provider, { name: "signed-client", audience: PKJWT_CLIENT });
    const r = await running({
      KEYHOLD_OIDC_CLIENT_SECRET: "",
      KEYHOLD_OIDC_CLIENT_ID: PKJWT_CLIENT,
      KEYHOLD_OIDC_PRIVATE_KEY_FILE: join(keyDir, file),
      KEYHOLD_OIDC_IDENTITY_ID: signed,
    });
    try {
      const before = provider.tokenRequests.length;
      const landed = await signInThroughProvider(r.browser, eve);
      expect(landed.location).toBe(`${PUBLIC_URL}/projects`);
      expect(provider.tokenRequests.slice(before)).toEqual([{ grantType: "authorization_code", status: 200 }]);
      expect(BffSessionSchema.parse((await r.get("/bff/session")).json).identity.name).toBe("signed-client");
    } finally {
      await r.bff.close();
    }
  });

  it("with credentials switched off, offers only single sign-on and refuses token sign-in", async () => {
    const r = await running({ KEYHOLD_OIDC_IDENTITY_ID: identityId, KEYHOLD_CREDENTIAL_SIGN_IN: "false" });
    try {
      expect(SignInOptionsSchema.parse((await r.get("/bff/sign-in-options")).json)).toEqual({
        credentials: false,
        sso: { providerName: "Acme ID", loginPath: "/bff/oidc/login" },
      });
      const refused = await r.bff.send({
        method: "POST",
        path: "/bff/login",
        headers: JSON_CSRF,
        body: JSON.stringify({ accessToken: service.adminToken }),
      });
      expect(refused.status).toBe(403);
      expect(r.sessions.size).toBe(0);
    } finally {
      await r.bff.close();
    }
  });
});

describe("test sign-ins from the set-up page", () => {
  it("in test-only mode, an admin's test signs the person in upstream, keeps the result and no session", async () => {
    const r = await running({});
    try {
      expect(SignInOptionsSchema.parse((await r.get("/bff/sign-in-options")).json).sso).toBeNull();
      expect((await r.browser.request(`${PUBLIC_URL}/bff/oidc/login`)).status).toBe(404);

      const { cookie } = await logIn(r.bff, service.adminToken);
      const [name = "", value = ""] = cookie.split("=");
      r.browser.cookies(PUBLIC_URL).set(name, value);
      const setup = OidcSetupSchema.parse((await r.get("/bff/oidc/setup")).json);
      expect(setup).toMatchObject({
        mode: "test-only",
        callbackUrl: `${PUBLIC_URL}/bff/oidc/callback`,
        postLogoutRedirectUrl: `${PUBLIC_URL}/sign-in`,
        issuer: provider.issuer,
        clientId: CLIENT_ID,
        providerName: "Acme ID",
        clientAuth: "client_secret_basic",
        credentials: true,
        rules: [],
      });
      expect(setup.problem).toBeUndefined();
      expect(JSON.stringify(setup)).not.toContain(CLIENT_SECRET);
      expect(OidcTestResultSchema.parse((await r.get("/bff/oidc/test")).json)).toEqual({ status: "none" });

      const before = await service.asAdmin("GET", "/api/v1/organization/audit-logs?limit=100");
      const seen = new Set((before.json.auditLogs as { id: string }[]).map((e) => e.id));
      const landed = await signInThroughProvider(r.browser, eve, `${PUBLIC_URL}/bff/oidc/login?test=${identityId}`);
      expect(landed.location).toBe(`${PUBLIC_URL}/sso-test`);
      expect(r.browser.cookies(PUBLIC_URL).get(SESSION_COOKIE)).toBe(value);
      expect(r.sessions.size).toBe(1);
      const result = OidcTestResultSchema.parse((await r.get("/bff/oidc/test")).json);
      expect(result).toMatchObject({
        status: "passed",
        person: { subject: "eve@acme.test", email: "eve@acme.test", name: "Eve Example" },
        identity: { id: identityId, name: "short-lived" },
      });

      // The upstream token the test got was given back at once.
      const after = await service.asAdmin("GET", "/api/v1/organization/audit-logs?limit=100");
      const fresh = (after.json.auditLogs as { id: string; event: { type: string } }[]).filter((e) => !seen.has(e.id));
      expect(fresh.map((e) => e.event.type)).toContain("revoke-identity-access-token");
    } finally {
      await r.bff.close();
    }
  });

  it("a test is pending until the provider answers, then kept as failed with the reason", async () => {
    const strict = await ssoIdentity(service, provider, { name: "test-strict", boundClaims: { groups: "nobody" } });
    const r = await running({});
    try {
      const { cookie } = await logIn(r.bff, service.adminToken);
      const [name = "", value = ""] = cookie.split("=");
      r.browser.cookies(PUBLIC_URL).set(name, value);
      const answer = await authorizationResponse(r.browser, eve, `${PUBLIC_URL}/bff/oidc/login?test=${strict}`);
      expect(OidcTestResultSchema.parse((await r.get("/bff/oidc/test")).json).status).toBe("pending");
      const landed = await r.browser.request(answer.toString());
      expect(landed.location).toBe(`${PUBLIC_URL}/sso-test`);
      const result = OidcTestResultSchema.parse((await r.get("/bff/oidc/test")).json);
      expect(result.status).toBe("failed");
      expect(result.message).toMatch(/^Acme ID signed you in as eve@acme\.test, but the secrets service refused/);
      expect(r.sessions.size).toBe(1);
    } finally {
      await r.bff.close();
    }
  });

  it("needs a session to start", async () => {
    const r = await running({});
    try {
      const start = await r.browser.request(`${PUBLIC_URL}/bff/oidc/login?test=${identityId}`);
      expect(start.status).toBe(401);
      expect(start.location).toBeUndefined();
    } finally {
      await r.bff.close();
    }
  });
});
