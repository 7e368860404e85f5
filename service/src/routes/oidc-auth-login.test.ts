import { ErrorBodySchema, endpoints } from "@keyhold/contract";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { type LoopbackPeer, startLoopbackPeer, unusedLoopbackUrl } from "../test/loopback.ts";
import { recordedBody, shapeOf } from "../test/shapes.ts";

const issued = endpoints["oidcAuth.login"].response;
const KID = "issuer-key-1";

/** The issuer's own key pair, and a stranger's that claims the same key id. */
const issuerKeys = await generateKeyPair("RS256", { extractable: true });
const strangerKeys = await generateKeyPair("RS256", { extractable: true });

const goodClaims = {
  sub: "deploy:acme-api",
  aud: ["keyhold-prod", "something-else"],
  groups: ["ops", "dev"],
  email_verified: true,
  org: { name: "acme-corp" },
};

describeEachDatabase("OIDC auth login against an issuer on loopback", (kind) => {
  let svc: TestService;
  let issuer: LoopbackPeer;
  beforeAll(async () => {
    svc = await startService({ kind });
    const jwk = { ...(await exportJWK(issuerKeys.publicKey)), kid: KID, alg: "RS256", use: "sig" };
    issuer = await startLoopbackPeer((request) => {
      if (request.url === "/.well-known/openid-configuration") {
        return { body: { issuer: issuer.url, jwks_uri: `${issuer.url}/keys` } };
      }
      if (request.url === "/keys") return { body: { keys: [jwk] } };
      return { status: 404, body: { error: "not found" } };
    });
  });
  afterAll(async () => {
    await issuer?.close();
    await svc?.close();
  });

  /** A token signed by the issuer (or by `key`), with the good claims unless told otherwise. */
  async function token(
    claims: JWTPayload = {},
    options: { key?: typeof issuerKeys.privateKey; issuer?: string; expiresIn?: string; kid?: string | null } = {},
  ) {
    const jwt = new SignJWT({ ...goodClaims, ...claims })
      .setProtectedHeader({ alg: "RS256", ...(options.kid !== null && { kid: options.kid ?? KID }) })
      .setIssuer(options.issuer ?? issuer.url)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? "5m");
    return jwt.sign(options.key ?? issuerKeys.privateKey);
  }

  /** An identity with org role member (its tokens may read identities) and OIDC auth attached. */
  async function oidcIdentity(name: string, attach: Record<string, unknown> = {}) {
    const res = await svc.endpoint("identities.create", {
      body: { name, organizationId: svc.info.orgId, role: "member" },
    });
    const identityId = endpoints["identities.create"].response.parse(res.body).identity.id;
    const attached = await svc.endpoint("oidcAuth.attach", {
      params: { identityId },
      body: {
        oidcDiscoveryUrl: issuer.url,
        boundIssuer: issuer.url,
        boundAudiences: "keyhold-*, other-audience",
        boundSubject: "deploy:acme-*",
        boundClaims: { groups: "admins, ops", email_verified: "true", "org.name": "acme-*" },
        accessTokenTTL: 900,
        accessTokenMaxTTL: 3600,
        ...attach,
      },
    });
    expect(attached.status).toBe(200);
    return identityId;
  }

  const login = (identityId: string, jwt: string) =>
    svc.endpoint("oidcAuth.login", { body: { identityId, jwt } }, { token: null });

  async function tokensOf(identityId: string) {
    return svc.app.db.selectFrom("identity_access_tokens").selectAll().where("identity_id", "=", identityId).execute();
  }

  describe("happy path", () => {
    it("verifies the token with the issuer's published key, answers as a sign-in does, and the token works", async () => {
      const identityId = await oidcIdentity("oidc-good");
      const before = issuer.received.length;
      const res = await login(identityId, await token());
      expect(res.status).toBe(200);
      expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("025-")));
      const body = issued.parse(res.body);
      expect(body).toMatchObject({ expiresIn: 900, accessTokenMaxTTL: 3600, tokenType: "Bearer" });
      expect(issuer.received.slice(before).map((r) => r.url)).toEqual(["/.well-known/openid-configuration", "/keys"]);

      const read = await svc.endpoint("identities.get", { params: { identityId } }, { token: body.accessToken });
      expect(read.status).toBe(200);
      expect(await tokensOf(identityId)).toMatchObject([
        { auth_method: "oidc-auth", access_token_ttl: 900, access_token_max_ttl: 3600 },
      ]);
    });

    it("accepts a token without a key id (every published key is tried) and a discovery URL given in full", async () => {
      const identityId = await oidcIdentity("oidc-no-kid", {
        oidcDiscoveryUrl: `${issuer.url}/.well-known/openid-configuration`,
        boundAudiences: "",
        boundSubject: "",
        boundClaims: {},
      });
      const res = await login(identityId, await token({ sub: "anyone", aud: "anything" }, { kid: null }));
      expect(res.status).toBe(200);
    });
  });

  describe("claim metadata", () => {
    it("keeps the claims the mapping names on the token (nested and non-text ones as JSON), nothing else", async () => {
      const identityId = await oidcIdentity("oidc-mapped", {
        claimMetadataMapping: { subject: "sub", orgName: "org.name", verified: "email_verified" },
      });
      const res = await login(identityId, await token());
      expect(res.status).toBe(200);
      const rows = await tokensOf(identityId);
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]?.claim_metadata ?? "null")).toEqual({
        subject: "deploy:acme-api",
        orgName: "acme-corp",
        verified: "true",
      });
    });

    it("keeps none for a method without a mapping", async () => {
      const identityId = await oidcIdentity("oidc-unmapped");
      expect((await login(identityId, await token())).status).toBe(200);
      expect((await tokensOf(identityId)).map((row) => row.claim_metadata)).toEqual([null]);
    });
  });

  describe("refusals", () => {
    const refusals: [string, () => Promise<string>, number, string | RegExp][] = [
      [
        "a token from another issuer",
        () => token({}, { issuer: "https://elsewhere.example" }),
        401,
        /^Access denied: .*iss/,
      ],
      [
        "a token for another audience",
        () => token({ aud: "billing" }),
        401,
        "Access denied: OIDC audience not allowed.",
      ],
      [
        "a token for another subject",
        () => token({ sub: "deploy:other-api" }),
        403,
        "Access denied: OIDC subject not allowed.",
      ],
      [
        "a token whose bound claim does not match",
        () => token({ groups: ["dev"] }),
        401,
        "Access denied: OIDC claim not allowed.",
      ],
      [
        "a token whose nested claim does not match",
        () => token({ org: { name: "globex" } }),
        401,
        "Access denied: OIDC claim not allowed.",
      ],
      [
        "a token whose boolean claim does not match",
        () => token({ email_verified: false }),
        401,
        "Access denied: OIDC claim not allowed.",
      ],
      [
        "a token without a bound claim",
        () => token({ groups: undefined }),
        401,
        "Access denied: token has no groups field",
      ],
      ["an expired token", () => token({}, { expiresIn: "-1m" }), 401, /^Access denied: .*exp/],
      [
        "a token signed by another key",
        () => token({}, { key: strangerKeys.privateKey }),
        401,
        /^Access denied: .*signature/,
      ],
      ["a string that is not a JWT", async () => "not-a-jwt", 401, /^Access denied/],
    ];
    for (const [what, make, status, message] of refusals) {
      it(`refuses ${what} with ${status}, issuing no token`, async () => {
        const identityId = await oidcIdentity(`oidc-${what}`);
        const res = await login(identityId, await make());
        expect(res.status).toBe(status);
        const error = ErrorBodySchema.parse(res.body);
        if (typeof message === "string") expect(error.message).toBe(message);
        else expect(error.message).toMatch(message);
        expect(await tokensOf(identityId)).toEqual([]);
      });
    }

    it("answers 401 when the discovery document names no key set", async () => {
      const identityId = await oidcIdentity("oidc-no-jwks", { oidcDiscoveryUrl: `${issuer.url}/elsewhere` });
      const res = await login(identityId, await token());
      expect(res.status).toBe(401);
      expect(ErrorBodySchema.parse(res.body).message).toMatch(/HTTP 404 for its discovery document/);
    });

    it("answers 502 when the provider cannot be reached", async () => {
      const identityId = await oidcIdentity("oidc-unreachable", { oidcDiscoveryUrl: await unusedLoopbackUrl() });
      const res = await login(identityId, await token());
      expect(res.status).toBe(502);
      expect(ErrorBodySchema.parse(res.body).error).toBe("BadGateway");
    });

    it("answers 404 for an identity without OIDC auth and 422 for a body without a token", async () => {
      const res = await svc.endpoint("identities.create", {
        body: { name: "oidc-none", organizationId: svc.info.orgId, role: "member" },
      });
      const identityId = endpoints["identities.create"].response.parse(res.body).identity.id;
      const refused = await login(identityId, await token());
      expect(refused.status).toBe(404);
      expect(ErrorBodySchema.parse(refused.body).message).toBe(
        "OIDC auth method not found for identity, did you configure OIDC auth?",
      );
      expect((await login(identityId, "")).status).toBe(422);
    });
  });
});
