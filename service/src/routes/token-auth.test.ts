import { DEFAULT_TOKEN_TTL, ErrorBodySchema, endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkTokenLifetime } from "../domain/auth-method-service.ts";
import { identityWithToken, tokenRowsOf } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";

const attachResponse = endpoints["tokenAuth.attach"].response;
const tokenResponse = endpoints["tokenAuth.createToken"].response;

describeEachDatabase("token auth", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind });
  });
  afterAll(async () => svc?.close());

  async function newIdentity(name: string): Promise<string> {
    const res = await svc.endpoint("identities.create", { body: { name, organizationId: svc.info.orgId } });
    return endpoints["identities.create"].response.parse(res.body).identity.id;
  }

  describe("happy paths", () => {
    it("attaches with Infisical's defaults, returning trusted IPs in stored form", async () => {
      const identityId = await newIdentity("defaults");
      const res = await svc.endpoint("tokenAuth.attach", { params: { identityId }, body: {} });
      expect(res.status).toBe(200);
      const { identityTokenAuth } = attachResponse.parse(res.body);
      expect(identityTokenAuth.identityId).toBe(identityId);
      expect(identityTokenAuth.accessTokenTTL).toBe(DEFAULT_TOKEN_TTL);
      expect(identityTokenAuth.accessTokenMaxTTL).toBe(DEFAULT_TOKEN_TTL);
      expect(identityTokenAuth.accessTokenNumUsesLimit).toBe(0);
      expect(identityTokenAuth.accessTokenPeriod).toBe(0);
      expect(identityTokenAuth.accessTokenTrustedIps).toEqual([
        { ipAddress: "0.0.0.0", type: "ipv4", prefix: 0 },
        { ipAddress: "::", type: "ipv6", prefix: 0 },
      ]);
      const got = await svc.endpoint("identities.get", { params: { identityId } });
      expect(endpoints["identities.get"].response.parse(got.body).identity.identity.authMethods).toEqual([
        "token-auth",
      ]);
    });

    it("issues a token copying TTL, max TTL and uses limit from the configuration", async () => {
      const identityId = await newIdentity("issued");
      await svc.endpoint("tokenAuth.attach", {
        params: { identityId },
        body: {
          accessTokenTTL: 600,
          accessTokenMaxTTL: 1200,
          accessTokenNumUsesLimit: 7,
          accessTokenTrustedIps: [{ ipAddress: "127.0.0.1" }],
        },
      });
      const res = await svc.endpoint("tokenAuth.createToken", { params: { identityId }, body: { name: "deploy" } });
      expect(res.status).toBe(200);
      const body = tokenResponse.parse(res.body);
      expect(body.tokenType).toBe("Bearer");
      expect(body.expiresIn).toBe(600);
      expect(body.accessTokenMaxTTL).toBe(1200);
      expect(body.tokenData).toMatchObject({
        identityId,
        name: "deploy",
        authMethod: "token-auth",
        accessTokenTTL: 600,
        accessTokenMaxTTL: 1200,
        accessTokenNumUsesLimit: 7,
        accessTokenNumUses: 0,
        isAccessTokenRevoked: false,
      });
      const [, payload] = body.accessToken.split(".");
      const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8"));
      expect(claims).toMatchObject({
        identityId,
        identityAccessTokenId: body.tokenData?.id,
        authTokenType: "identityAccessToken",
      });
      expect(claims.exp - claims.iat).toBe(600);
      expect(body).not.toHaveProperty("tokenData.accessToken");
    });

    it("issues a token without exp when the TTL is 0", async () => {
      const identityId = await newIdentity("forever");
      await svc.endpoint("tokenAuth.attach", {
        params: { identityId },
        body: { accessTokenTTL: 0, accessTokenMaxTTL: 0 },
      });
      const body = tokenResponse.parse(
        (await svc.endpoint("tokenAuth.createToken", { params: { identityId }, body: {} })).body,
      );
      const claims = JSON.parse(Buffer.from(body.accessToken.split(".")[1] ?? "", "base64url").toString("utf8"));
      expect(claims).not.toHaveProperty("exp");
      expect(body.expiresIn).toBe(0);
    });

    it("revokes token auth: returns the config, and every token it issued stops working", async () => {
      const { identityId, token } = await identityWithToken(svc, { name: "revoked", role: "member" });
      const second = tokenResponse.parse(
        (await svc.endpoint("tokenAuth.createToken", { params: { identityId }, body: {} })).body,
      );
      for (const t of [token, second.accessToken]) {
        expect((await svc.endpoint("identities.get", { params: { identityId } }, { token: t })).status).toBe(200);
      }
      const res = await svc.endpoint("tokenAuth.revoke", { params: { identityId } });
      expect(res.status).toBe(200);
      expect(attachResponse.parse(res.body).identityTokenAuth.identityId).toBe(identityId);

      for (const t of [token, second.accessToken]) {
        const refused = await svc.endpoint("identities.get", { params: { identityId } }, { token: t });
        expect(refused.status).toBe(401);
        expect(ErrorBodySchema.parse(refused.body).error).toBe("UnauthorizedError");
      }
      const rows = await tokenRowsOf(svc, identityId);
      expect(rows).toEqual([]);
      const got = await svc.endpoint("identities.get", { params: { identityId } });
      expect(endpoints["identities.get"].response.parse(got.body).identity.identity.authMethods).toEqual([]);
    });
  });

  describe("error paths", () => {
    it("refuses to attach twice (400)", async () => {
      const identityId = await newIdentity("twice");
      expect((await svc.endpoint("tokenAuth.attach", { params: { identityId }, body: {} })).status).toBe(200);
      const res = await svc.endpoint("tokenAuth.attach", { params: { identityId }, body: {} });
      expect(res.status).toBe(400);
      expect(ErrorBodySchema.parse(res.body).error).toBe("BadRequest");
    });

    it("lets exactly one of several parallel attaches win; the rest get 400, never 500", async () => {
      const identityId = await newIdentity("racing");
      const results = await Promise.all(
        Array.from({ length: 6 }, () => svc.endpoint("tokenAuth.attach", { params: { identityId }, body: {} })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    });

    it("refuses to remove the token auth of the identity making the request", async () => {
      const res = await svc.endpoint("tokenAuth.revoke", { params: { identityId: svc.info.adminIdentityId } });
      expect(res.status).toBe(400);
      expect(ErrorBodySchema.parse(res.body).message).toMatch(/signed in as/);
      const still = await svc.endpoint("identities.get", { params: { identityId: svc.info.adminIdentityId } });
      expect(still.status).toBe(200);
    });

    it("refuses a TTL above the max TTL: 422 from the contract schema", async () => {
      const identityId = await newIdentity("ttl");
      const res = await svc.endpoint("tokenAuth.attach", {
        params: { identityId },
        body: { accessTokenTTL: 100, accessTokenMaxTTL: 50 },
      });
      expect(res.status).toBe(422);
      expect(ErrorBodySchema.parse(res.body).message).toEqual([expect.objectContaining({ path: ["accessTokenTTL"] })]);
    });

    it("refuses invalid IPs and CIDR blocks (400)", async () => {
      const identityId = await newIdentity("bad-ip");
      for (const ipAddress of ["10.0.0.0/33", "not-an-ip", "10", "::1/129", "1.2.3.4.5"]) {
        const res = await svc.endpoint("tokenAuth.attach", {
          params: { identityId },
          body: { accessTokenTrustedIps: [{ ipAddress }] },
        });
        expect(res.status, ipAddress).toBe(400);
      }
    });

    it("answers 400 to issue without token auth, 404 to revoke it, 404 for unknown identities", async () => {
      const identityId = await newIdentity("bare");
      expect((await svc.endpoint("tokenAuth.createToken", { params: { identityId }, body: {} })).status).toBe(400);
      const revoked = await svc.endpoint("tokenAuth.revoke", { params: { identityId } });
      expect(revoked.status).toBe(404);
      expect(ErrorBodySchema.parse(revoked.body)).toMatchObject({ error: "NotFound", message: /not attached/ });
      const unknown = "00000000-0000-4000-8000-000000000001";
      expect((await svc.endpoint("tokenAuth.attach", { params: { identityId: unknown }, body: {} })).status).toBe(404);
      expect((await svc.endpoint("tokenAuth.createToken", { params: { identityId: unknown }, body: {} })).status).toBe(
        404,
      );
    });

    it("denies a member issuing tokens (403 PermissionDenied)", async () => {
      const { identityId, token } = await identityWithToken(svc, { name: "member-issuer", role: "member" });
      const res = await svc.endpoint("tokenAuth.createToken", { params: { identityId }, body: {} }, { token });
      expect(res.status).toBe(403);
      expect(ErrorBodySchema.parse(res.body).error).toBe("PermissionDenied");
    });
  });
});

describe("token lifetime check in the domain", () => {
  it("refuses a TTL above a non-zero max TTL even when a caller bypasses the schema", () => {
    expect(() => checkTokenLifetime(100, 50)).toThrow(/cannot be greater/);
    expect(() => checkTokenLifetime(100, 0)).not.toThrow();
    expect(() => checkTokenLifetime(50, 50)).not.toThrow();
  });
});
