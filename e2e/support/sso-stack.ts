import type { ChildProcess } from "node:child_process";
import { endpoints } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import { startOidcProvider, type TestOidcProvider } from "../../bff/src/test/oidc-provider.ts";
import { ignoreNotFound } from "./api.ts";
import { test as base, expect, uniqueName } from "./fixtures.ts";
import { freePort, start, waitFor } from "./processes.ts";

/**
 * Single sign-on end to end: a real OpenID provider (oidc-provider, with its own login page) in
 * the test process, and a BFF of its own configured for it, serving the built console in front of
 * the suite's service. Two identities with OIDC auth, chosen by rules on the `groups` claim:
 * "platform" (org admin; groups platform, and contractors, whom its bound claim then refuses) and
 * "short-lived" (tokens of 6 seconds, so renewal by refresh token happens within a test).
 */

export const PROVIDER_NAME = "Acme ID";
export const CLIENT_ID = "keyhold-console";
const CLIENT_SECRET = "console-secret-for-e2e-only";
/** Seconds: the short-lived identity's tokens; the BFF renews them two thirds in. */
export const SHORT_TTL = 6;

export interface SsoStack {
  /** The SSO BFF's origin; `url(path)` builds an address on it. */
  origin: string;
  url(path: string): string;
  provider: TestOidcProvider;
  identities: { platform: { id: string; name: string }; shortLived: { id: string; name: string } };
}

export interface Person {
  email: string;
  password: string;
  name: string;
  groups: string[];
}

interface SsoFixtures {
  /** A person of the provider, unique to the test, in the given groups. */
  person: (groups: string[]) => Person;
}

/** Signs in at the provider's own login page (the browser is on it). */
export async function signInAtProvider(page: Page, person: Person): Promise<void> {
  await expect(page).toHaveTitle("Acme ID: sign in");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Continue" }).click();
}

export const test = base.extend<SsoFixtures, { sso: SsoStack }>({
  sso: [
    async ({ service, session }, use) => {
      const port = await freePort();
      // Named "localhost", while the provider is at 127.0.0.1: two sites, as a console and a company's
      // provider are, so neither's cookies (nor the BFF's Clear-Site-Data at sign-out) touch the other's.
      const origin = `http://localhost:${port}`;
      const provider = await startOidcProvider({
        users: [],
        clients: [
          {
            clientId: CLIENT_ID,
            clientSecret: CLIENT_SECRET,
            redirectUris: [`${origin}/bff/oidc/callback`],
            postLogoutRedirectUris: [`${origin}/sign-in`],
          },
        ],
      });
      const oidcAuth = (boundGroups: string, accessTokenTTL?: number) => ({
        oidcDiscoveryUrl: provider.issuer,
        boundIssuer: provider.issuer,
        boundAudiences: CLIENT_ID,
        boundClaims: { groups: boundGroups },
        claimMetadataMapping: { email: "email", name: "name" },
        ...(accessTokenTTL !== undefined && { accessTokenTTL, accessTokenMaxTTL: accessTokenTTL }),
      });
      const identity = async (prefix: string, body: ReturnType<typeof oidcAuth>) => {
        const { identity: created } = await service(endpoints["identities.create"], {
          body: { name: uniqueName(prefix), organizationId: session.organization.id, role: "admin" },
        });
        await service(endpoints["oidcAuth.attach"], { params: { identityId: created.id }, body });
        return { id: created.id, name: created.name };
      };
      const platform = await identity("e2e-sso-platform", oidcAuth("platform"));
      const shortLived = await identity("e2e-sso-short", oidcAuth("short-lived", SHORT_TTL));

      let bff: ChildProcess | undefined;
      try {
        bff = start("bff for single sign-on", "bff/src/server.ts", {
          PORT: String(port),
          HOST: "localhost",
          KEYHOLD_UPSTREAM_URL: process.env.KEYHOLD_E2E_SERVICE_URL ?? "",
          KEYHOLD_LOGIN_RATE_LIMIT: "1000",
          KEYHOLD_PUBLIC_URL: origin,
          KEYHOLD_OIDC_ISSUER: provider.issuer,
          KEYHOLD_OIDC_CLIENT_ID: CLIENT_ID,
          KEYHOLD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
          KEYHOLD_OIDC_SCOPES: "openid email profile groups offline_access",
          KEYHOLD_OIDC_PROVIDER_NAME: PROVIDER_NAME,
          KEYHOLD_OIDC_IDENTITY_RULES: JSON.stringify([
            { name: "short-lived", claim: "groups", values: "short-lived", identityId: shortLived.id },
            { name: "platform", claim: "groups", values: "platform,contractors", identityId: platform.id },
          ]),
        });
        await waitFor(`${origin}/healthz`, bff, "bff for single sign-on");
        await use({ origin, url: (path) => `${origin}${path}`, provider, identities: { platform, shortLived } });
      } finally {
        bff?.kill("SIGTERM");
        await provider.close();
        for (const { id } of [platform, shortLived]) {
          await ignoreNotFound(service(endpoints["identities.delete"], { params: { identityId: id } }));
        }
      }
    },
    { scope: "worker" },
  ],
  person: async ({ sso }, use) => {
    const made: string[] = [];
    await use((groups) => {
      const email = `${uniqueName("person")}@acme.test`;
      const person = { email, password: `pw-${uniqueName("p")}`, name: `Person ${email.slice(7, 15)}`, groups };
      sso.provider.users.set(email, { ...person });
      made.push(email);
      return person;
    });
    for (const email of made) sso.provider.users.delete(email);
  },
});

export { expect };
