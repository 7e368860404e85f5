import { SignInOptionsSchema } from "@keyhold/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemorySessionStore } from "./session/store.ts";
import { CSRF, type TestBff } from "./test/harness.ts";
import type { TestOidcProvider } from "./test/oidc-provider.ts";
import type { TestBrowser } from "./test/sso-browser.ts";
import {
  authorizationResponse,
  browserFor,
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

const [eve] = people as [(typeof people)[number]];
const SESSION_COOKIE = "__Host-keyhold";
const FLOW_COOKIE = "__Host-keyhold-sso";

let service: RealService;
let provider: TestOidcProvider;
let identityId: string;

beforeAll(async () => {
  [service, provider] = await Promise.all([startService(), startProvider()]);
  identityId = await ssoIdentity(service, provider, { name: "attack-target" });
});
afterAll(async () => {
  await Promise.all([service?.close(), provider?.close()]);
});

let bff: TestBff;
let browser: TestBrowser;
let sessions: MemorySessionStore;
beforeEach(async () => {
  sessions = new MemorySessionStore();
  ({ bff } = await startSsoBff(
    service,
    {
      KEYHOLD_OIDC_ISSUER: provider.issuer,
      KEYHOLD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      KEYHOLD_OIDC_IDENTITY_ID: identityId,
    },
    { sessionStore: sessions },
  ));
  browser = browserFor(bff);
  provider.tamperIdToken = undefined;
  provider.forgeIdTokenSignature = false;
  return () => bff.close();
});

/** Delivers the provider's answer (possibly altered) to the callback, as the browser would. */
const deliver = (callback: URL) => browser.request(callback.toString());

/** What every refusal must look like: back to the sign-in page, no session cookie, no session kept. */
async function expectRefused(answer: { status: number; location: string | undefined; headers: Headers }) {
  expect(answer.status).toBe(302);
  expect(answer.location).toBe(`${PUBLIC_URL}/sign-in?sso=failed`);
  expect(answer.headers.getSetCookie().filter((c) => c.startsWith(`${SESSION_COOKIE}=`))).toEqual([]);
  expect(browser.cookies(PUBLIC_URL).has(SESSION_COOKIE)).toBe(false);
  expect(sessions.size).toBe(0);
  const options = await bff.send({
    path: "/bff/sign-in-options",
    headers: { ...CSRF, cookie: browser.consoleCookieHeader() },
  });
  return SignInOptionsSchema.parse(options.json).failure ?? "";
}

describe("attacks on the single sign-on callback", () => {
  it("a wrong state is refused", async () => {
    const callback = await authorizationResponse(browser, eve);
    callback.searchParams.set("state", "forged-state-value");
    const message = await expectRefused(await deliver(callback));
    expect(message).toMatch(/^Acme ID did not sign you in: .*"state"/);
  });

  it("a replayed state (the same answer delivered again, with the old flow cookie) is refused", async () => {
    const callback = await authorizationResponse(browser, eve);
    const flowCookie = browser.cookies(PUBLIC_URL).get(FLOW_COOKIE) ?? "";
    const first = await deliver(callback);
    expect(first.location).toBe(`${PUBLIC_URL}/projects`);
    expect(sessions.size).toBe(1);

    const attacker = browserFor(bff);
    attacker.cookies(PUBLIC_URL).set(FLOW_COOKIE, flowCookie);
    const replay = await attacker.request(callback.toString());
    expect(replay.status).toBe(302);
    expect(replay.location).toBe(`${PUBLIC_URL}/sign-in?sso=failed`);
    expect(replay.headers.getSetCookie().filter((c) => c.startsWith(`${SESSION_COOKIE}=`))).toEqual([]);
    expect(sessions.size).toBe(1);
  });

  it("a replayed code is refused by the provider, and nothing is kept", async () => {
    const used = await authorizationResponse(browser, eve);
    expect((await deliver(used)).location).toBe(`${PUBLIC_URL}/projects`);
    await bff.send({
      method: "POST",
      path: "/bff/logout",
      headers: { ...CSRF, cookie: browser.consoleCookieHeader() },
    });
    browser.cookies(PUBLIC_URL).delete(SESSION_COOKIE);
    expect(sessions.size).toBe(0);

    // A fresh flow of the same browser, its answer carrying the code already spent.
    const fresh = await authorizationResponse(browser, eve);
    fresh.searchParams.set("code", used.searchParams.get("code") ?? "");
    const before = provider.tokenRequests.length;
    await expectRefused(await deliver(fresh));
    expect(provider.tokenRequests.slice(before)).toEqual([{ grantType: "authorization_code", status: 400 }]);
  });

  it.each([
    ["a nonce mismatch", (c: Record<string, unknown>) => ({ ...c, nonce: "another-nonce" }), /"nonce"/],
    [
      "an ID token from another issuer",
      (c: Record<string, unknown>) => ({ ...c, iss: "https://evil.example" }),
      /"iss"/,
    ],
    ["an ID token for another audience", (c: Record<string, unknown>) => ({ ...c, aud: "another-client" }), /"aud"/],
    [
      "an expired ID token",
      (c: Record<string, unknown>) => {
        const now = Math.floor(Date.now() / 1000);
        return { ...c, iat: now - 7200, exp: now - 3600 };
      },
      /"exp"/,
    ],
  ])("%s is refused", async (_name, tamper, reason) => {
    const callback = await authorizationResponse(browser, eve);
    provider.tamperIdToken = tamper;
    const message = await expectRefused(await deliver(callback));
    expect(message).toMatch(reason);
  });

  it("an ID token signed with a key the provider does not publish is refused", async () => {
    const callback = await authorizationResponse(browser, eve);
    provider.forgeIdTokenSignature = true;
    const message = await expectRefused(await deliver(callback));
    // Refused by the BFF itself, before the secrets service is asked.
    expect(message).toMatch(/^Acme ID did not sign you in: .*signature/i);
  });

  it("a callback without the flow cookie (no PKCE verifier) never reaches the token endpoint", async () => {
    const callback = await authorizationResponse(browser, eve);
    browser.cookies(PUBLIC_URL).delete(FLOW_COOKIE);
    const before = provider.tokenRequests.length;
    expect(await expectRefused(await deliver(callback))).toMatch(/not started in this browser/);
    expect(provider.tokenRequests.length).toBe(before);
  });

  it("an error from the provider (access denied) is refused and told once", async () => {
    const callback = await authorizationResponse(browser, eve);
    const denied = new URL(`${PUBLIC_URL}/bff/oidc/callback`);
    denied.searchParams.set("error", "access_denied");
    denied.searchParams.set("state", callback.searchParams.get("state") ?? "");
    denied.searchParams.set("iss", provider.issuer);
    expect(await expectRefused(await deliver(denied))).toMatch(/access_denied/);
    const again = await bff.send({
      path: "/bff/sign-in-options",
      headers: { ...CSRF, cookie: browser.consoleCookieHeader() },
    });
    expect(SignInOptionsSchema.parse(again.json).failure).toBeUndefined();
  });

  it.each([
    "//evil.example/projects",
    "/\\evil.example",
    "https://evil.example/",
    "evil.example",
    "/\n/evil.example",
    "/\t/evil.example",
  ])("an open redirect in returnTo (%j) is refused before anything starts", async (returnTo) => {
    const start = await browser.request(`${PUBLIC_URL}/bff/oidc/login?returnTo=${encodeURIComponent(returnTo)}`);
    expect(start.status).toBe(400);
    expect(start.location).toBeUndefined();
    expect(browser.cookies(PUBLIC_URL).size).toBe(0);
    expect(sessions.size).toBe(0);
  });

  it("the return path is kept as given when it is a path on this site", async () => {
    const landed = await signInThroughProvider(
      browser,
      eve,
      `${PUBLIC_URL}/bff/oidc/login?returnTo=${encodeURIComponent("/projects/p1/secrets?env=dev")}`,
    );
    expect(landed.location).toBe(`${PUBLIC_URL}/projects/p1/secrets?env=dev`);
  });

  it("no answer of the BFF ever carries the ID token, the refresh token or the access token", async () => {
    await signInThroughProvider(browser, eve);
    const cookie = browser.consoleCookieHeader();
    for (const path of ["/bff/session", "/bff/sign-in-options", "/bff/oidc/setup", "/bff/oidc/test"]) {
      const answer = await bff.send({ path, headers: { ...CSRF, cookie } });
      browser.consoleAnswers.push(`${answer.status} ${JSON.stringify(answer.headers)} ${answer.text}`);
    }
    const session = await sessions.get(browser.cookies(PUBLIC_URL).get(SESSION_COOKIE) ?? "");
    expect(session?.oidc?.refreshToken).toMatch(/./);
    expect(session?.accessToken).toMatch(/^eyJ/);
    const logout = await bff.send({ method: "POST", path: "/bff/logout", headers: { ...CSRF, cookie } });
    browser.consoleAnswers.push(`${logout.status} ${JSON.stringify(logout.headers)} ${logout.text}`);

    const everything = browser.consoleAnswers.join("\n");
    expect(everything).not.toContain(session?.accessToken);
    expect(everything).not.toContain(session?.oidc?.refreshToken);
    // No JWT at all: the ID token and the access token are both JWTs.
    expect(everything).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\./);
  });
});
