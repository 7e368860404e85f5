import type { ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { endpoints } from "@keyhold/contract";
import { startOidcProvider, type TestOidcProvider } from "../../bff/src/test/oidc-provider.ts";
import { ignoreNotFound, type ServiceCall } from "./api.ts";
import { uniqueName } from "./fixtures.ts";
import { freePort, start, waitFor } from "./processes.ts";

/**
 * Single sign-on in front of a live server: a real OpenID provider ("Acme ID", oidc-provider) on
 * loopback, an identity of the server with OIDC auth bound to it, and a BFF of its own with the
 * KEYHOLD_OIDC_* configuration, serving the console in front of the same server.
 *
 * The provider speaks https with a throwaway self-signed certificate: an October 2024 server
 * fetches an issuer's keys over https only. The server is given the certificate as the identity's
 * `caCert`, the BFF as NODE_EXTRA_CA_CERTS, the browser ignores it (`ignoreHTTPSErrors`).
 */

export const PROVIDER_NAME = "Acme ID";
export const CLIENT_ID = "keyhold-console";
/** The rule that routes Acme's groups to the identity; the identity's own bound claim decides who may use it. */
export const RULE_NAME = "acme staff";

export const insider = { email: "ada@acme.test", password: "ada-pass-1", name: "Ada Lovelace", groups: ["platform"] };
/** Matched by the rule (group "sales"), refused by the identity's bound claim (not an acme.test address). */
export const outsider = {
  email: "eve@contractor.test",
  password: "eve-pass-1",
  name: "Eve Contractor",
  groups: ["sales"],
};
/** Routed by a second rule to an identity that has no OIDC auth attached. */
export const intern = { email: "ivy@acme.test", password: "ivy-pass-1", name: "Ivy Intern", groups: ["interns"] };
export const UNBOUND_RULE_NAME = "interns";
/** Routed to an identity whose tokens live a few seconds, so that the BFF renews them while the test watches. */
export const renewer = { email: "rex@acme.test", password: "rex-pass-1", name: "Rex Renewer", groups: ["on-call"] };
/** Seconds; the BFF renews two thirds into a token's life. */
export const SHORT_TOKEN_TTL = 6;

export interface LiveSso {
  /** The BFF with single sign-on, `http://127.0.0.1:<port>`. */
  baseUrl: string;
  provider: TestOidcProvider;
  /** Whether the server has OIDC auth at all (a route for its login). */
  hasOidcAuth: boolean;
  /** The identity people sign in as; on a server without OIDC auth, an id that names nothing. */
  identity: { id: string; name: string };
  /** An identity of the server without OIDC auth, named by the interns' rule. */
  unbound: { id: string; name: string };
  /** Bound like `identity`, with tokens of SHORT_TOKEN_TTL seconds; the on-call rule names it. */
  shortLived: { id: string; name: string };
  close(): Promise<void>;
}

/**
 * Whether the server has OIDC auth, told by its login route: a server without it answers its
 * router's not-found ("Route POST:… not found"); one with it answers an unknown identity with a
 * 4xx of the method's own (a 404 "… auth method not found for identity" included).
 */
export async function serverHasOidcAuth(upstream: string): Promise<boolean> {
  const answer = await fetch(`${upstream}${endpoints["oidcAuth.login"].path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ identityId: "00000000-0000-4000-8000-000000000000", jwt: "not.a.token" }),
  });
  const body = (await answer.json().catch(() => ({}))) as { message?: unknown };
  return !(answer.status === 404 && /^Route \w+:\S* not found$/.test(String(body.message ?? "")));
}

/** A certificate for 127.0.0.1, valid for a day, made by openssl. */
function selfSignedCertificate(dir: string): { key: string; cert: string } {
  const key = join(dir, "provider-key.pem");
  const cert = join(dir, "provider-cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
}

export async function startLiveSso(options: {
  upstream: string;
  service: ServiceCall;
  organizationId: string;
}): Promise<LiveSso> {
  const { upstream, service, organizationId } = options;
  const dir = mkdtempSync(join(tmpdir(), "keyhold-live-sso-"));
  const tls = selfSignedCertificate(dir);
  const caFile = join(dir, "provider-cert.pem");
  const secretFile = join(dir, "client-secret");
  const clientSecret = `acme-${uniqueName("secret")}`;
  writeFileSync(secretFile, clientSecret, { mode: 0o600 });

  const bffPort = await freePort();
  const baseUrl = `http://127.0.0.1:${bffPort}`;
  const provider = await startOidcProvider({
    users: [insider, outsider, intern, renewer],
    clients: [
      {
        clientId: CLIENT_ID,
        clientSecret,
        redirectUris: [`${baseUrl}/bff/oidc/callback`],
        postLogoutRedirectUris: [`${baseUrl}/sign-in`],
      },
    ],
    tls,
  });

  let bff: ChildProcess | undefined;
  const identityIds: string[] = [];
  const close = async () => {
    bff?.kill("SIGTERM");
    for (const identityId of identityIds) {
      await ignoreNotFound(service(endpoints["identities.delete"], { params: { identityId } }));
    }
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const hasOidcAuth = await serverHasOidcAuth(upstream);
    // Nothing to attach OIDC auth to on a server without it: the BFF is configured all the same,
    // as an operator would try it.
    const none = { id: "00000000-0000-4000-8000-000000000000", name: "(none)" };
    const identity = hasOidcAuth ? await boundIdentity(service, organizationId, provider.issuer, tls.cert) : none;
    if (hasOidcAuth) identityIds.push(identity.id);
    const shortLived = hasOidcAuth
      ? await boundIdentity(service, organizationId, provider.issuer, tls.cert, SHORT_TOKEN_TTL)
      : none;
    if (hasOidcAuth) identityIds.push(shortLived.id);
    const unbound = await service(endpoints["identities.create"], {
      body: { name: uniqueName("sso-live-unbound"), organizationId, role: "member" },
    });
    identityIds.push(unbound.identity.id);

    bff = start("bff (single sign-on)", "bff/src/server.ts", {
      PORT: String(bffPort),
      HOST: "127.0.0.1",
      KEYHOLD_UPSTREAM_URL: upstream,
      KEYHOLD_UPSTREAM_TIMEOUT_MS: "30000",
      // Each test signs in afresh; the default limit of 10 per minute is for people.
      KEYHOLD_LOGIN_RATE_LIMIT: "1000",
      KEYHOLD_PUBLIC_URL: baseUrl,
      KEYHOLD_OIDC_ISSUER: provider.issuer,
      KEYHOLD_OIDC_CLIENT_ID: CLIENT_ID,
      KEYHOLD_OIDC_CLIENT_SECRET_FILE: secretFile,
      KEYHOLD_OIDC_SCOPES: "openid email profile groups offline_access",
      KEYHOLD_OIDC_IDENTITY_RULES: JSON.stringify([
        { name: RULE_NAME, claim: "groups", values: "platform, sales", identityId: identity.id },
        { name: UNBOUND_RULE_NAME, claim: "groups", values: "interns", identityId: unbound.identity.id },
        { name: "on-call", claim: "groups", values: "on-call", identityId: shortLived.id },
      ]),
      KEYHOLD_OIDC_PROVIDER_NAME: PROVIDER_NAME,
      // The provider's certificate, trusted by the BFF as an operator trusts a private CA.
      NODE_EXTRA_CA_CERTS: caFile,
    });
    await waitFor(`${baseUrl}/healthz`, bff, "bff (single sign-on)");
    return {
      baseUrl,
      provider,
      hasOidcAuth,
      identity,
      unbound: { id: unbound.identity.id, name: unbound.identity.name },
      shortLived,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * An identity as the console's set-up page makes one: issuer, audience = the client, the person's
 * e-mail and name carried into its tokens (servers of 2024 accept the mapping and drop it), and a
 * bound claim on the e-mail. Array claims such as `groups` cannot be bound on Infisical servers
 * (the login fails for everyone), so groups are matched by the BFF's rule instead.
 */
async function boundIdentity(
  service: ServiceCall,
  organizationId: string,
  issuer: string,
  caCert: string,
  accessTokenTTL = 3600,
): Promise<{ id: string; name: string }> {
  const name = uniqueName("sso-live");
  const { identity } = await service(endpoints["identities.create"], {
    body: { name, organizationId, role: "member" },
  });
  try {
    await service(endpoints["oidcAuth.attach"], {
      params: { identityId: identity.id },
      body: {
        oidcDiscoveryUrl: issuer,
        caCert,
        boundIssuer: issuer,
        boundAudiences: CLIENT_ID,
        boundClaims: { email: "*@acme.test" },
        claimMetadataMapping: { email: "email", name: "name" },
        boundSubject: "",
        accessTokenTTL,
        accessTokenMaxTTL: 7200,
        accessTokenNumUsesLimit: 0,
        accessTokenTrustedIps: [{ ipAddress: "0.0.0.0/0" }, { ipAddress: "::/0" }],
      },
    });
  } catch (error) {
    await ignoreNotFound(service(endpoints["identities.delete"], { params: { identityId: identity.id } }));
    throw error;
  }
  return { id: identity.id, name };
}
