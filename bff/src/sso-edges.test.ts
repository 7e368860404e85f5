import { createServer } from "node:net";
import { Writable } from "node:stream";
import { OidcSetupSchema, SignInOptionsSchema } from "@keyhold/contract";
import { sampleSum, scrapeMetrics } from "@keyhold/service/test/processes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "./logger.ts";
import { MemorySessionStore } from "./session/store.ts";
import { CSRF, logIn } from "./test/harness.ts";
import { startRecordingUpstream } from "./test/recording-upstream.ts";
import type { TestOidcProvider } from "./test/oidc-provider.ts";
import {
  authorizationResponse,
  browserFor,
  CLIENT_SECRET,
  PUBLIC_URL,
  type RealService,
  signInThroughProvider,
  ssoIdentity,
  startProvider,
  startService,
  startSsoBff,
} from "./test/sso-setup.ts";

const eve = { email: "eve@acme.test", password: "eve-pass" };

let service: RealService;
let provider: TestOidcProvider;
let identityId: string;

beforeAll(async () => {
  [service, provider] = await Promise.all([startService(), startProvider()]);
  identityId = await ssoIdentity(service, provider, { name: "edges" });
});
afterAll(async () => {
  await Promise.all([service?.close(), provider?.close()]);
});

const ssoEnv = () => ({
  KEYHOLD_OIDC_ISSUER: provider.issuer,
  KEYHOLD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
  KEYHOLD_OIDC_IDENTITY_ID: identityId,
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

describe("the X-CSRF guard with single sign-on", () => {
  it("lets exactly the two navigations through without the header", async () => {
    const { bff } = await startSsoBff(service, ssoEnv());
    try {
      const login = await bff.send({ path: "/bff/oidc/login?returnTo=/" });
      expect(login.status).toBe(302);
      expect(login.headers.location).toMatch(new RegExp(`^${provider.issuer}/auth\\?`));
      const callback = await bff.send({ path: "/bff/oidc/callback?code=x&state=y" });
      expect(callback.status).toBe(302);
      expect(callback.headers.location).toBe("/sign-in?sso=failed");

      for (const path of ["/bff/sign-in-options", "/bff/oidc/setup", "/bff/oidc/test", "/bff/session"]) {
        expect((await bff.send({ path })).status, path).toBe(401);
      }
      // Only GET: any other method on those paths still needs the header.
      for (const method of ["POST", "PUT", "DELETE"]) {
        expect((await bff.send({ method, path: "/bff/oidc/callback" })).status).toBe(401);
        expect((await bff.send({ method, path: "/bff/oidc/login" })).status).toBe(401);
      }
      // A path that only decodes to a navigation is not one.
      expect((await bff.send({ path: "/bff/oidc/%6Cogin" })).status).toBe(401);
    } finally {
      await bff.close();
    }
  });
});

describe("the authorization request", () => {
  it("asks for a code with PKCE S256, state, nonce, the scopes and the registered redirect URI", async () => {
    const { bff } = await startSsoBff(service, ssoEnv());
    try {
      const login = await bff.send({ path: "/bff/oidc/login?returnTo=/projects" });
      const url = new URL(String(login.headers.location));
      const params = Object.fromEntries(url.searchParams);
      expect(params).toMatchObject({
        client_id: "keyhold-console",
        response_type: "code",
        code_challenge_method: "S256",
        redirect_uri: `${PUBLIC_URL}/bff/oidc/callback`,
        scope: "openid email profile offline_access",
      });
      expect(params.state).toMatch(/^[\w-]{43}$/);
      expect(params.nonce).toMatch(/^[\w-]{43}$/);
      expect(params.code_challenge).toMatch(/^[\w-]{43}$/);
      const flow = login.headers["set-cookie"]?.find((c) => c.startsWith("__Host-keyhold-sso=")) ?? "";
      expect(flow.split("; ").slice(1).sort()).toEqual(["HttpOnly", "Max-Age=600", "Path=/", "SameSite=Lax", "Secure"]);
      // The cookie is only a handle: none of the flow's secrets are in it.
      const handle = flow.split(";")[0]?.split("=")[1] ?? "";
      expect([params.state, params.nonce, params.code_challenge]).not.toContain(handle);
    } finally {
      await bff.close();
    }
  });
});

describe("over plain HTTP (KEYHOLD_INSECURE_COOKIES=true)", () => {
  it("names the flow cookie without the __Host- prefix and without Secure, and signs in", async () => {
    const { bff } = await startSsoBff(service, { ...ssoEnv(), KEYHOLD_INSECURE_COOKIES: "true" });
    try {
      const login = await bff.send({ path: "/bff/oidc/login" });
      const flow = login.headers["set-cookie"]?.find((c) => c.startsWith("keyhold-sso=")) ?? "";
      expect(flow.split("; ").slice(1).sort()).toEqual(["HttpOnly", "Max-Age=600", "Path=/", "SameSite=Lax"]);
      const browser = browserFor(bff);
      expect((await signInThroughProvider(browser, eve)).location).toBe(`${PUBLIC_URL}/projects`);
      expect(browser.cookies(PUBLIC_URL).has("keyhold")).toBe(true);
      expect(browser.cookies(PUBLIC_URL).has("keyhold-sso")).toBe(false);
    } finally {
      await bff.close();
    }
  });
});

describe("rate limit", () => {
  it("holds the two navigations to the sign-in rate limit, per address", async () => {
    const { bff } = await startSsoBff(service, { ...ssoEnv(), KEYHOLD_LOGIN_RATE_LIMIT: "2" });
    try {
      for (const path of ["/bff/oidc/login", "/bff/oidc/callback"]) {
        const statuses = [];
        for (let i = 0; i < 3; i++) statuses.push((await bff.send({ path })).status);
        expect(statuses, path).toEqual([302, 302, 429]);
      }
    } finally {
      await bff.close();
    }
  });
});

describe("without single sign-on", () => {
  it("nothing changes: no provider, the forms only, the navigations are 404", async () => {
    const { bff } = await startSsoBff(service, { KEYHOLD_OIDC_CLIENT_ID: "", KEYHOLD_OIDC_PROVIDER_NAME: "" });
    try {
      const options = await bff.send({ path: "/bff/sign-in-options", headers: CSRF });
      expect(SignInOptionsSchema.parse(options.json)).toEqual({ credentials: true, sso: null });
      expect((await bff.send({ path: "/bff/oidc/login" })).status).toBe(404);
      expect((await bff.send({ path: "/bff/oidc/callback?code=x&state=y" })).status).toBe(404);
      const { cookie } = await logIn(bff, service.adminToken);
      const setup = OidcSetupSchema.parse(
        (await bff.send({ path: "/bff/oidc/setup", headers: { ...CSRF, cookie } })).json,
      );
      expect(setup).toEqual({
        mode: "off",
        callbackUrl: `${PUBLIC_URL}/bff/oidc/callback`,
        postLogoutRedirectUrl: `${PUBLIC_URL}/sign-in`,
        scopes: [],
        rules: [],
        credentials: true,
      });
      // Signing out of a token session is as before.
      const out = await bff.send({ method: "POST", path: "/bff/logout", headers: { ...CSRF, cookie } });
      expect(out.status).toBe(204);
    } finally {
      await bff.close();
    }
  });
});

describe("a provider that is down", () => {
  it("does not stop the BFF; sign-in says so, and works once the provider is back", async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const down = await ssoIdentity(service, { issuer } as TestOidcProvider, { name: "later" });
    const { bff } = await startSsoBff(service, {
      KEYHOLD_OIDC_ISSUER: issuer,
      KEYHOLD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      KEYHOLD_OIDC_IDENTITY_ID: down,
    });
    let late: TestOidcProvider | undefined;
    try {
      const browser = browserFor(bff);
      const first = await browser.request(`${PUBLIC_URL}/bff/oidc/login?returnTo=/`);
      expect(first.location).toBe(`${PUBLIC_URL}/sign-in?sso=failed`);
      const options = await bff.send({
        path: "/bff/sign-in-options",
        headers: { ...CSRF, cookie: browser.consoleCookieHeader() },
      });
      expect(SignInOptionsSchema.parse(options.json).failure).toBe(
        "Acme ID cannot be reached right now. Try again shortly.",
      );
      const { cookie } = await logIn(bff, service.adminToken);
      const setup = OidcSetupSchema.parse(
        (await bff.send({ path: "/bff/oidc/setup", headers: { ...CSRF, cookie } })).json,
      );
      expect(setup.problem).toMatch(/discovery document .* could not be used/);

      late = await startProvider({ port });
      const landed = await signInThroughProvider(browserFor(bff), eve);
      expect(landed.location).toBe(`${PUBLIC_URL}/projects`);
    } finally {
      await bff.close();
      await late?.close();
    }
  });
});

describe("logs", () => {
  it("never carry the code, the state, the nonce or any token; the callback is logged without its query", async () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString("utf8"));
        done();
      },
    });
    const sessions = new MemorySessionStore();
    const { bff } = await startSsoBff(service, ssoEnv(), {
      logger: createLogger("trace", stream),
      sessionStore: sessions,
    });
    try {
      const browser = browserFor(bff);
      const callback = await authorizationResponse(browser, eve);
      // A refused attempt (wrong state) and a good one: both are logged.
      const forged = new URL(callback);
      forged.searchParams.set("state", "forged-state-value");
      await browser.request(forged.toString());
      const good = await authorizationResponse(browser, eve);
      expect((await browser.request(good.toString())).location).toBe(`${PUBLIC_URL}/projects`);
      const session = await sessions.get(browser.cookies(PUBLIC_URL).get("__Host-keyhold") ?? "");

      const log = chunks.join("");
      expect(log).toContain('"route":"/bff/oidc/callback"');
      for (const secret of [
        callback.searchParams.get("code"),
        good.searchParams.get("code"),
        good.searchParams.get("state"),
        "forged-state-value",
        session?.accessToken,
        session?.oidc?.refreshToken,
      ]) {
        expect(secret).toMatch(/./);
        expect(log).not.toContain(secret);
      }
      expect(log).not.toMatch(/eyJ[\w-]+\.eyJ/);
      expect(log).not.toContain("code_verifier");
    } finally {
      await bff.close();
    }
  });
});

describe("metrics", () => {
  it("count single sign-on outcomes, and label its routes by name", async () => {
    const { bff } = await startSsoBff(service, { ...ssoEnv(), METRICS_PORT: "0" });
    try {
      await signInThroughProvider(browserFor(bff), eve);
      const refused = browserFor(bff);
      const callback = await authorizationResponse(refused, eve);
      callback.searchParams.set("state", "forged");
      await refused.request(callback.toString());
      const families = await scrapeMetrics(bff.app.metricsUrl as string);
      expect(sampleSum(families, "keyhold_sso_sign_ins_total", { outcome: "signed_in" })).toBe(1);
      expect(sampleSum(families, "keyhold_sso_sign_ins_total", { outcome: "refused" })).toBe(1);
      expect(sampleSum(families, "keyhold_http_requests_total", { endpoint: "bff.oidcCallback" })).toBe(2);
      expect(sampleSum(families, "keyhold_http_requests_total", { endpoint: "bff.oidcLogin" })).toBe(2);
    } finally {
      await bff.close();
    }
  });
});

describe("an upstream without OIDC auth", () => {
  it("refuses with the message that says so (its login route is missing)", async () => {
    const upstream = await startRecordingUpstream(() => ({
      status: 404,
      body: { statusCode: 404, message: "Route POST:/api/v1/auth/oidc-auth/login not found", error: "Not Found" },
    }));
    const { bff } = await startSsoBff({ origin: upstream.origin }, ssoEnv());
    try {
      const browser = browserFor(bff);
      const landed = await signInThroughProvider(browser, eve);
      expect(landed.location).toBe(`${PUBLIC_URL}/sign-in?sso=failed`);
      const options = await bff.send({
        path: "/bff/sign-in-options",
        headers: { ...CSRF, cookie: browser.consoleCookieHeader() },
      });
      expect(SignInOptionsSchema.parse(options.json).failure).toBe(
        "This secrets service has no OIDC auth, so single sign-on cannot work with it.",
      );
      expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /api/v1/auth/oidc-auth/login"]);
      expect(JSON.parse(upstream.requests[0]?.body ?? "{}")).toMatchObject({ identityId });
    } finally {
      await bff.close();
      await upstream.close();
    }
  });
});
