import { BffSessionSchema, SignInOptionsSchema } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemorySessionStore } from "./session/store.ts";
import { CSRF, type TestBff } from "./test/harness.ts";
import type { TestOidcProvider } from "./test/oidc-provider.ts";
import type { TestBrowser } from "./test/sso-browser.ts";
import {
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
const mallory = { email: "mallory@acme.test", password: "mallory-pass" };
const dave = { email: "dave@acme.test", password: "dave-pass" };
const oscar = { email: "oscar@acme.test", password: "oscar-pass" };

let service: RealService;
let provider: TestOidcProvider;
const ids = { platform: "", contractors: "", strict: "", plain: "" };

beforeAll(async () => {
  service = await startService();
  provider = await startProvider({
    users: [
      { ...eve, name: "Eve Example", groups: ["platform"] },
      { ...mallory, name: "Mallory", groups: ["contractors-eu"] },
      { ...dave, name: "Dave", groups: ["ops", "platform"] },
      { ...oscar, name: "Oscar", groups: ["sales"] },
    ],
  });
  ids.platform = await ssoIdentity(service, provider, {
    name: "platform-admins",
    role: "admin",
    boundClaims: { groups: "platform" },
  });
  ids.contractors = await ssoIdentity(service, provider, { name: "contractors", role: "member" });
  // Its OIDC auth admits nobody the provider knows: the rule may pick it, the service refuses.
  ids.strict = await ssoIdentity(service, provider, { name: "ops-strict", boundClaims: { groups: "nobody" } });
  const plain = await service.asAdmin("POST", "/api/v1/identities", {
    name: "no-oidc-auth",
    organizationId: service.orgId,
    role: "member",
  });
  ids.plain = (plain.json.identity as { id: string }).id;
});
afterAll(async () => {
  await Promise.all([service?.close(), provider?.close()]);
});

async function bffWithRules(rules: unknown[], extra: Record<string, string> = {}) {
  const sessions = new MemorySessionStore();
  const { bff } = await startSsoBff(
    service,
    {
      KEYHOLD_OIDC_ISSUER: provider.issuer,
      KEYHOLD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      KEYHOLD_OIDC_IDENTITY_RULES: JSON.stringify(rules),
      // The groups claim comes with the provider's "groups" scope.
      KEYHOLD_OIDC_SCOPES: "openid email profile groups offline_access",
      ...extra,
    },
    { sessionStore: sessions },
  );
  return { bff, sessions };
}

async function sessionOf(bff: TestBff, browser: TestBrowser) {
  const answer = await bff.send({ path: "/bff/session", headers: { ...CSRF, cookie: browser.consoleCookieHeader() } });
  return answer.status === 200 ? BffSessionSchema.parse(answer.json) : undefined;
}

async function failureOf(bff: TestBff, browser: TestBrowser) {
  const answer = await bff.send({
    path: "/bff/sign-in-options",
    headers: { ...CSRF, cookie: browser.consoleCookieHeader() },
  });
  return SignInOptionsSchema.parse(answer.json).failure;
}

describe("sign-in rules", () => {
  let bff: TestBff;
  let sessions: MemorySessionStore;
  beforeAll(async () => {
    ({ bff, sessions } = await bffWithRules([
      { name: "platform", claim: "groups", values: "platform", identityId: ids.platform },
      { name: "ops", claim: "groups", values: "ops", identityId: ids.strict },
      { name: "contractors", claim: "groups", values: "contractors-*", identityId: ids.contractors },
    ]));
  });
  afterAll(() => bff?.close());

  it.each([
    ["eve (platform)", eve, "platform-admins", "admin"],
    ["dave (ops and platform): the first matching rule wins", dave, "platform-admins", "admin"],
    ["mallory (a glob)", mallory, "contractors", "member"],
  ])("%s signs in as the rule's identity", async (_name, person, identity, role) => {
    const browser = browserFor(bff);
    const landed = await signInThroughProvider(browser, person);
    expect(landed.location).toBe(`${PUBLIC_URL}/projects`);
    const view = await sessionOf(bff, browser);
    expect(view?.identity).toMatchObject({ name: identity, role });
    expect(view?.person?.email).toBe(person.email);
  });

  it("refuses a person no rule matches, saying so with the provider's name", async () => {
    const before = sessions.size;
    const browser = browserFor(bff);
    const landed = await signInThroughProvider(browser, oscar);
    expect(landed.location).toBe(`${PUBLIC_URL}/sign-in?sso=failed`);
    expect(await failureOf(bff, browser)).toBe(
      "Acme ID signed you in as oscar@acme.test, but no sign-in rule matches you.",
    );
    expect(await failureOf(bff, browser)).toBeUndefined();
    expect(sessions.size).toBe(before);
  });

  it("a member identity may not reach the set-up or start a test sign-in", async () => {
    const browser = browserFor(bff);
    await signInThroughProvider(browser, mallory);
    const cookie = browser.consoleCookieHeader();
    expect((await bff.send({ path: "/bff/oidc/setup", headers: { ...CSRF, cookie } })).status).toBe(403);
    expect((await bff.send({ path: "/bff/oidc/test", headers: { ...CSRF, cookie } })).status).toBe(403);
    const start = await browser.request(`${PUBLIC_URL}/bff/oidc/login?test=${ids.platform}`);
    expect(start.status).toBe(403);
  });
});

describe("refusals by the secrets service", () => {
  it("names the provider, the person and the rule when the identity's bound claims refuse them", async () => {
    const { bff, sessions } = await bffWithRules([
      { name: "platform", claim: "groups", values: "platform", identityId: ids.strict },
    ]);
    try {
      const browser = browserFor(bff);
      const landed = await signInThroughProvider(browser, eve);
      expect(landed.location).toBe(`${PUBLIC_URL}/sign-in?sso=failed`);
      expect(await failureOf(bff, browser)).toBe(
        'Acme ID signed you in as eve@acme.test, but the secrets service refused the identity of rule "platform": OIDC claim not allowed.',
      );
      expect(sessions.size).toBe(0);
    } finally {
      await bff.close();
    }
  });

  it("falls back to KEYHOLD_OIDC_IDENTITY_ID, named as such, when no rule matches", async () => {
    const { bff } = await bffWithRules(
      [{ name: "platform", claim: "groups", values: "platform", identityId: ids.platform }],
      { KEYHOLD_OIDC_IDENTITY_ID: ids.plain },
    );
    try {
      const browser = browserFor(bff);
      await signInThroughProvider(browser, oscar);
      expect(await failureOf(bff, browser)).toBe(
        'Acme ID signed you in as oscar@acme.test, but the secrets service refused the identity of rule "KEYHOLD_OIDC_IDENTITY_ID": OIDC auth method not found for identity, did you configure OIDC auth?',
      );
    } finally {
      await bff.close();
    }
  });
});
