import { ErrorBodySchema, endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { recordedBody, shapeOf } from "../test/shapes.ts";

const renewed = endpoints["accessTokens.renew"].response;

describeEachDatabase("access tokens: renew and revoke", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind });
  });
  afterAll(async () => svc?.close());

  const renew = (accessToken: string) => svc.endpoint("accessTokens.renew", { body: { accessToken } }, { token: null });
  const revoke = (accessToken: string) =>
    svc.endpoint("accessTokens.revoke", { body: { accessToken } }, { token: null });
  const read = (token: string, identityId: string) =>
    svc.endpoint("identities.get", { params: { identityId } }, { token }).then((r) => r.status);

  /** Moves a token's creation (and last renewal, when given) into the past. */
  const age = (identityId: string, createdAgoMs: number, renewedAgoMs?: number) =>
    svc.app.db
      .updateTable("identity_access_tokens")
      .set({
        created_at: new Date(Date.now() - createdAgoMs).toISOString(),
        ...(renewedAgoMs !== undefined && {
          access_token_last_renewed_at: new Date(Date.now() - renewedAgoMs).toISOString(),
        }),
      })
      .where("identity_id", "=", identityId)
      .execute();

  const tokenRow = (identityId: string) =>
    svc.app.db
      .selectFrom("identity_access_tokens")
      .selectAll()
      .where("identity_id", "=", identityId)
      .executeTakeFirst();

  describe("renew", () => {
    it("answers as the recorded server, without a bearer token, with a token for the same grant", async () => {
      const { identityId, token } = await identityWithToken(svc, {
        role: "member",
        attach: { accessTokenTTL: 1800, accessTokenMaxTTL: 86400 },
      });
      const res = await renew(token);
      expect(res.status).toBe(200);
      expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("026-")));
      const body = renewed.parse(res.body);
      expect(body).toMatchObject({ expiresIn: 1800, accessTokenMaxTTL: 86400, tokenType: "Bearer" });
      expect(await read(body.accessToken, identityId)).toBe(200);
      const row = await tokenRow(identityId);
      expect(Date.now() - new Date(row?.access_token_last_renewed_at as string).getTime()).toBeLessThan(10_000);
    });

    it("counts the TTL again from the renewal", async () => {
      const { identityId, token } = await identityWithToken(svc, {
        role: "member",
        attach: { accessTokenTTL: 60, accessTokenMaxTTL: 3600 },
      });
      await age(identityId, 50_000);
      const body = renewed.parse((await renew(token)).body);
      // 90 s after creation: past the TTL counted from creation, within it counted from the renewal.
      await age(identityId, 90_000);
      expect(await read(body.accessToken, identityId)).toBe(200);
      // Without the renewal the same age is refused.
      await age(identityId, 90_000, 90_000);
      expect(await read(body.accessToken, identityId)).toBe(401);
    });

    it("refuses a renewal that would outlast the max TTL, and deletes a token past it", async () => {
      const { identityId, token } = await identityWithToken(svc, {
        role: "member",
        attach: { accessTokenTTL: 60, accessTokenMaxTTL: 100 },
      });
      expect((await renew(token)).status).toBe(200);
      // 50 s old: renewing by 60 s would end at 110 s, past the 100 s max TTL.
      await age(identityId, 50_000, 0);
      const refused = await renew(token);
      expect(refused.status).toBe(401);
      expect(ErrorBodySchema.parse(refused.body)).toMatchObject({ error: "UnauthorizedError", message: /max TTL/ });
      expect(await read(token, identityId)).toBe(200);
      // 150 s old, renewed 10 s ago: past the max TTL altogether.
      await age(identityId, 150_000, 10_000);
      expect((await renew(token)).status).toBe(401);
      expect(await tokenRow(identityId)).toBeUndefined();
    });

    it("refuses at once when TTL equals max TTL (Infisical's defaults)", async () => {
      const { token } = await identityWithToken(svc, { role: "member" });
      expect((await renew(token)).status).toBe(401);
    });

    it("refuses a revoked token with 401 and a malformed one with 403 TokenError", async () => {
      const { token } = await identityWithToken(svc, { role: "member" });
      expect((await revoke(token)).status).toBe(200);
      expect((await renew(token)).status).toBe(401);
      const garbage = await renew("not-a-token");
      expect(garbage.status).toBe(403);
      expect(ErrorBodySchema.parse(garbage.body).error).toBe("TokenError");
    });
  });

  describe("revoke", () => {
    it("answers as the recorded server, without a bearer token; the token is refused on its next request", async () => {
      const { identityId, token } = await identityWithToken(svc, { role: "member" });
      expect(await read(token, identityId)).toBe(200);
      const res = await revoke(token);
      expect(res.status).toBe(200);
      expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("027-")));
      expect(res.body).toEqual({ message: "Successfully revoked access token" });
      expect(await read(token, identityId)).toBe(401);
      expect(await tokenRow(identityId)).toMatchObject({ is_access_token_revoked: 1 });
    });

    it("refuses a token this service did not sign with 403 TokenError", async () => {
      const res = await revoke("eyJhbGciOiJIUzI1NiJ9.eyJpZGVudGl0eUlkIjoieCJ9.c2lnbmF0dXJl");
      expect(res.status).toBe(403);
      expect(ErrorBodySchema.parse(res.body).error).toBe("TokenError");
    });

    it("answers 422 to a body without a token", async () => {
      const res = await svc.endpoint("accessTokens.revoke", { body: {} }, { token: null });
      expect(res.status).toBe(422);
    });
  });
});
