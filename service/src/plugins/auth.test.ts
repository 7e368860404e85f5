import { randomBytes } from "node:crypto";
import { ErrorBodySchema, endpoints } from "@keyhold/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { identityWithToken, tokenRowsOf } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";

const errorOf = (body: unknown) => ErrorBodySchema.parse(body);

describeEachDatabase("access token enforcement", (kind) => {
  const rootKey = randomBytes(32).toString("base64");
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind, rootKey, logLevel: "trace" });
  });
  afterAll(async () => svc?.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const getAdmin = (token: string | null, remoteAddress?: string) =>
    svc.endpoint(
      "identities.get",
      { params: { identityId: svc.info.adminIdentityId } },
      { token, ...(remoteAddress && { remoteAddress }) },
    );

  describe("missing and invalid tokens", () => {
    it("answers 401 UnauthorizedError without a token", async () => {
      const res = await getAdmin(null);
      expect(res.status).toBe(401);
      expect(errorOf(res.body).error).toBe("UnauthorizedError");
    });

    it("answers 401 for a non-Bearer Authorization header", async () => {
      const res = await svc.call("GET", `/api/v1/identities/${svc.info.adminIdentityId}`, {
        token: null,
        headers: { authorization: `Basic ${svc.adminToken}` },
      });
      expect(res.status).toBe(401);
    });

    it("answers 403 TokenError for a malformed token", async () => {
      for (const token of ["garbage", "a.b.c", `${svc.adminToken}x`]) {
        const res = await getAdmin(token);
        expect(res.status, token.slice(0, 8)).toBe(403);
        expect(errorOf(res.body).error).toBe("TokenError");
      }
    });

    it("answers 403 TokenError for a token signed with another root key (forged)", async () => {
      const other = await startService({ kind: "sqlite" });
      try {
        const res = await getAdmin(other.adminToken);
        expect(res.status).toBe(403);
        expect(errorOf(res.body).error).toBe("TokenError");
      } finally {
        await other.close();
      }
    });

    it("answers 403 TokenError once the JWT has expired", async () => {
      const { token, identityId } = await identityWithToken(svc, {
        role: "member",
        attach: { accessTokenTTL: 60, accessTokenMaxTTL: 60 },
      });
      expect((await svc.endpoint("identities.get", { params: { identityId } }, { token })).status).toBe(200);
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 61_000);
      const res = await svc.endpoint("identities.get", { params: { identityId } }, { token });
      expect(res.status).toBe(403);
      expect(errorOf(res.body).error).toBe("TokenError");
    });

    it("answers 401 for a revoked token row and for a deleted identity", async () => {
      const revoked = await identityWithToken(svc, { role: "member" });
      await svc.app.db
        .updateTable("identity_access_tokens")
        .set({ is_access_token_revoked: 1 })
        .where("identity_id", "=", revoked.identityId)
        .execute();
      expect((await getAdmin(revoked.token)).status).toBe(401);

      const deleted = await identityWithToken(svc, { role: "member" });
      expect((await svc.endpoint("identities.delete", { params: { identityId: deleted.identityId } })).status).toBe(
        200,
      );
      expect((await getAdmin(deleted.token)).status).toBe(401);
    });
  });

  describe("number-of-uses limit", () => {
    it("a limit of 2 admits two requests, then 401 and the row is gone", async () => {
      const { token, identityId } = await identityWithToken(svc, {
        role: "member",
        attach: { accessTokenNumUsesLimit: 2 },
      });
      expect((await getAdmin(token)).status).toBe(200);
      expect((await getAdmin(token)).status).toBe(200);
      const third = await getAdmin(token);
      expect(third.status).toBe(401);
      expect(errorOf(third.body).error).toBe("UnauthorizedError");
      const rows = await tokenRowsOf(svc, identityId);
      expect(rows).toEqual([]);
    });

    it("a limit of 5 admits exactly 5 of 20 parallel requests over HTTP", async () => {
      const { token } = await identityWithToken(svc, { role: "member", attach: { accessTokenNumUsesLimit: 5 } });
      const server = await startService({ kind, shareWith: svc });
      try {
        const address = await server.app.listen({ port: 0, host: "127.0.0.1" });
        const url = `${address}/api/v1/identities/${svc.info.adminIdentityId}`;
        const statuses = await Promise.all(
          Array.from({ length: 20 }, () =>
            fetch(url, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status),
          ),
        );
        expect(statuses.filter((s) => s === 200)).toHaveLength(5);
        expect(statuses.filter((s) => s === 401)).toHaveLength(15);
      } finally {
        await server.close();
      }
    });
  });

  describe("trusted IPs", () => {
    it("refuses a token trusted only for 10.0.0.0/8 when used from 127.0.0.1, without spending a use", async () => {
      const { token } = await identityWithToken(svc, {
        role: "member",
        attach: { accessTokenTrustedIps: [{ ipAddress: "10.0.0.0/8" }], accessTokenNumUsesLimit: 1 },
      });
      const refused = await getAdmin(token, "127.0.0.1");
      expect(refused.status).toBe(403);
      expect(errorOf(refused.body).error).toBe("ForbiddenError");
      expect(refused.body).not.toHaveProperty("details");

      expect((await getAdmin(token, "::ffff:10.1.2.3")).status).toBe(200);
      expect((await getAdmin(token, "10.1.2.3")).status).toBe(401); // the single use is spent
    });

    it("ignores X-Forwarded-For when deciding the caller's address", async () => {
      const { token } = await identityWithToken(svc, {
        role: "member",
        attach: { accessTokenTrustedIps: [{ ipAddress: "10.0.0.0/8" }] },
      });
      const res = await svc.endpoint(
        "identities.get",
        { params: { identityId: svc.info.adminIdentityId } },
        { token, headers: { "x-forwarded-for": "10.9.9.9" } },
      );
      expect(res.status).toBe(403);
    });
  });

  describe("several instances", () => {
    it("instances sharing the root key and database accept each other's tokens", async () => {
      const second = await startService({ kind, shareWith: svc });
      try {
        expect(second.info.orgId).toBe(svc.info.orgId);
        const issued = await second.endpoint("tokenAuth.createToken", {
          params: { identityId: svc.info.adminIdentityId },
          body: {},
        });
        const { accessToken } = endpoints["tokenAuth.createToken"].response.parse(issued.body);
        expect((await getAdmin(accessToken)).status).toBe(200);
      } finally {
        await second.close();
      }
    });
  });

  describe("logs", () => {
    it("never contain a token, even at trace level", async () => {
      const { token } = await identityWithToken(svc, { role: "member" });
      await getAdmin(token);
      await getAdmin(`${token}tampered`);
      const logs = svc.logs();
      expect(logs).toContain("request completed");
      expect(logs).not.toContain(token);
      expect(logs).not.toContain(token.split(".")[2]);
      expect(logs).not.toContain(svc.adminToken);
      expect(logs).not.toContain(rootKey);
    });
  });
});
