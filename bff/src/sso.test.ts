import { BffLogoutResponseSchema, BffSessionSchema, SignInOptionsSchema } from "@keyhold/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CSRF, type TestBff } from "./test/harness.ts";
import type { TestOidcProvider } from "./test/oidc-provider.ts";
import type { TestBrowser } from "./test/sso-browser.ts";
import {
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

let service: RealService;
let provider: TestOidcProvider;
let identityId: string;

beforeAll(async () => {
  [service, provider] = await Promise.all([startService(), startProvider()]);
  identityId = await ssoIdentity(service, provider, { name: "console-people" });
});
afterAll(async () => {
  await Promise.all([service?.close(), provider?.close()]);
});

let bff: TestBff;
let browser: TestBrowser;
beforeEach(async () => {
  ({ bff } = await startSsoBff(service, {
    KEYHOLD_OIDC_ISSUER: provider.issuer,
    KEYHOLD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
    KEYHOLD_OIDC_IDENTITY_ID: identityId,
  }));
  browser = browserFor(bff);
  return () => bff.close();
});

const fromConsole = (path: string, method = "GET", body?: unknown) =>
  bff.send({
    method,
    path,
    headers: {
      ...CSRF,
      cookie: browser.consoleCookieHeader(),
      ...(body !== undefined && { "content-type": "application/json" }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

describe("single sign-on with a real provider and the real service", () => {
  it("signs a person in through the provider's login page and names them in the session", async () => {
    const options = await fromConsole("/bff/sign-in-options");
    expect(SignInOptionsSchema.parse(options.json)).toEqual({
      credentials: true,
      sso: { providerName: "Acme ID", loginPath: "/bff/oidc/login" },
    });

    const landed = await signInThroughProvider(browser, eve);
    expect(landed.status).toBe(302);
    expect(landed.location).toBe(`${PUBLIC_URL}/projects`);
    expect(landed.trail.at(-1)).toMatch(/^https:\/\/console\.acme\.test\/bff\/oidc\/callback\?code=/);

    const session = await fromConsole("/bff/session");
    expect(session.status).toBe(200);
    const view = BffSessionSchema.parse(session.json);
    expect(view.person).toEqual({
      subject: "eve@acme.test",
      email: "eve@acme.test",
      name: "Eve Example",
      provider: "Acme ID",
    });
    expect(view.identity).toMatchObject({ id: identityId, name: "console-people", role: "admin" });
  });

  it("names the person in the audit event of a change they make", async () => {
    await signInThroughProvider(browser, eve);
    const created = await fromConsole("/api/v1/identities", "POST", {
      name: "made-by-eve",
      organizationId: service.orgId,
      role: "member",
    });
    expect(created.status, created.text).toBe(200);
    const madeId = (created.json as { identity: { id: string } }).identity.id;

    const log = await service.asAdmin("GET", "/api/v1/organization/audit-logs?limit=50");
    expect(log.status).toBe(200);
    const events = log.json.auditLogs as { event: { type: string; metadata: unknown }; actor: unknown }[];
    const event = events.find((e) => JSON.stringify(e.event.metadata).includes(madeId));
    expect(event?.actor).toMatchObject({
      type: "identity",
      metadata: { identityId, oidc: { claims: { email: "eve@acme.test", name: "Eve Example" } } },
    });
  });

  it("signs out at the provider too: end-session URL without the ID token, refresh token revoked", async () => {
    await signInThroughProvider(browser, eve);
    const cookie = browser.consoleCookieHeader();
    const out = await bff.send({ method: "POST", path: "/bff/logout", headers: { ...CSRF, cookie } });
    expect(out.status).toBe(200);
    const { endSessionUrl } = BffLogoutResponseSchema.parse(out.json);
    const url = new URL(endSessionUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/session/end`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "keyhold-console",
      post_logout_redirect_uri: `${PUBLIC_URL}/sign-in`,
    });
    expect((await bff.send({ path: "/bff/session", headers: { ...CSRF, cookie } })).status).toBe(401);
  });
});
