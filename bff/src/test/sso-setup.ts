import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp as buildService } from "@keyhold/service/app";
import { loadConfig as loadServiceConfig } from "@keyhold/service/config";
import type { FastifyInstance } from "fastify";
import type { AppOverrides } from "../app.ts";
import { type Config, loadConfig } from "../config.ts";
import { startBff, type TestBff } from "./harness.ts";
import { type ProviderOptions, type ProviderUser, startOidcProvider, type TestOidcProvider } from "./oidc-provider.ts";
import { loginFormAction, TestBrowser, type Visit } from "./sso-browser.ts";

/** The console's public origin in these tests: the provider knows the BFF by it. */
export const PUBLIC_URL = "https://console.acme.test";
export const CLIENT_ID = "keyhold-console";
export const CLIENT_SECRET = "console-secret-for-tests";

export const people: ProviderUser[] = [
  { email: "eve@acme.test", password: "eve-pass", name: "Eve Example", groups: ["platform"] },
  { email: "mallory@acme.test", password: "mallory-pass", name: "Mallory", groups: ["contractors"] },
  { email: "dave@acme.test", password: "dave-pass", name: "Dave", groups: ["platform", "ops"] },
];

/** The real service, in-process, with its admin token. */
export interface RealService {
  app: FastifyInstance;
  origin: string;
  adminToken: string;
  orgId: string;
  /** A call with the admin token, straight to the service. */
  asAdmin(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startService(): Promise<RealService> {
  const dataDir = await mkdtemp(join(tmpdir(), "keyhold-bff-sso-"));
  const app = await buildService({ config: loadServiceConfig({ KEYHOLD_DATA_DIR: dataDir, LOG_LEVEL: "silent" }) });
  const origin = await app.listen({ port: 0, host: "127.0.0.1" });
  const adminToken = (await readFile(join(dataDir, "admin-token"), "utf8")).trim();
  const asAdmin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(body !== undefined && { "content-type": "application/json" }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  return {
    app,
    origin,
    adminToken,
    orgId: app.keyhold.orgId,
    asAdmin,
    close: async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function startProvider(options: Partial<ProviderOptions> = {}): Promise<TestOidcProvider> {
  return startOidcProvider({
    users: people,
    clients: [
      {
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        redirectUris: [`${PUBLIC_URL}/bff/oidc/callback`],
        postLogoutRedirectUris: [`${PUBLIC_URL}/sign-in`],
      },
    ],
    ...options,
  });
}

/**
 * An identity with OIDC auth bound to the provider, as the set-up page makes one: issuer and
 * audience bound, e-mail and name mapped into the token's metadata, optional bound claims.
 */
export async function ssoIdentity(
  service: RealService,
  provider: TestOidcProvider,
  options: { name: string; role?: string; boundClaims?: Record<string, string>; accessTokenTTL?: number },
): Promise<string> {
  const created = await service.asAdmin("POST", "/api/v1/identities", {
    name: options.name,
    organizationId: service.orgId,
    role: options.role ?? "admin",
  });
  if (created.status !== 200) throw new Error(`identity: ${created.status} ${JSON.stringify(created.json)}`);
  const id = (created.json.identity as { id: string }).id;
  const attached = await service.asAdmin("POST", `/api/v1/auth/oidc-auth/identities/${id}`, {
    oidcDiscoveryUrl: provider.issuer,
    boundIssuer: provider.issuer,
    boundAudiences: CLIENT_ID,
    boundClaims: options.boundClaims ?? {},
    claimMetadataMapping: { email: "email", name: "name" },
    ...(options.accessTokenTTL !== undefined && { accessTokenTTL: options.accessTokenTTL }),
  });
  if (attached.status !== 200) throw new Error(`oidc auth: ${attached.status} ${JSON.stringify(attached.json)}`);
  return id;
}

/** A BFF configured from its environment, as an operator would start it. */
export async function startSsoBff(
  service: RealService,
  env: Record<string, string>,
  overrides: AppOverrides = {},
): Promise<{ bff: TestBff; config: Config }> {
  const config = {
    ...loadConfig({
      LOG_LEVEL: "silent",
      KEYHOLD_WEB_DIST: "/nonexistent",
      KEYHOLD_LOGIN_RATE_LIMIT: "1000",
      KEYHOLD_PUBLIC_URL: PUBLIC_URL,
      KEYHOLD_OIDC_CLIENT_ID: CLIENT_ID,
      KEYHOLD_OIDC_PROVIDER_NAME: "Acme ID",
      ...env,
    }),
    port: 0,
    upstreamOrigin: service.origin,
  };
  return { bff: await startBff(config, overrides), config };
}

export function browserFor(bff: TestBff): TestBrowser {
  return new TestBrowser(PUBLIC_URL, bff.app.listeningOrigin);
}

/**
 * Everything a person does: the console's "Sign in with Acme ID" link, the provider's own login
 * page (e-mail and password), consent implied, and back to the console through the callback.
 * Returns the last answer (the callback's redirect into the console, or wherever it stopped).
 */
export async function signInThroughProvider(
  browser: TestBrowser,
  person: { email: string; password: string },
  start = `${PUBLIC_URL}/bff/oidc/login?returnTo=/projects`,
): Promise<Visit> {
  const loginPage = await browser.navigate(start);
  if (loginPage.status !== 200) return loginPage;
  return browser.navigate(loginFormAction(loginPage), {
    method: "POST",
    form: { email: person.email, password: person.password },
  });
}

/** Up to the provider's answer, without letting the browser deliver it to the callback. */
export async function authorizationResponse(
  browser: TestBrowser,
  person: { email: string; password: string },
  start = `${PUBLIC_URL}/bff/oidc/login?returnTo=/projects`,
): Promise<URL> {
  const first = await browser.request(start);
  if (!first.location) throw new Error(`login did not redirect: ${first.status} ${first.text}`);
  let page = await browser.navigate(first.location);
  const form = loginFormAction(page);
  let next = await browser.request(form, { method: "POST", form: { email: person.email, password: person.password } });
  for (let hops = 0; next.location && !next.location.startsWith(`${PUBLIC_URL}/`); hops++) {
    if (hops > 20) throw new Error("too many redirects");
    next = await browser.request(next.location);
  }
  page = { ...next, trail: [] };
  if (!page.location) throw new Error(`no redirect back: ${page.status} ${page.text.slice(0, 200)}`);
  return new URL(page.location);
}
