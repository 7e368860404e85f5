import { endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";

/**
 * The authenticated read writes nothing for tokens without a uses limit, and caches only what
 * cannot go stale; these tests prove that every change still takes effect on the next request.
 */
describeEachDatabase("authentication fast path", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    // A long interval, so that only an explicit flush or a shutdown writes the batch.
    svc = await startService({ kind, env: { KEYHOLD_TOKEN_USAGE_FLUSH_MS: "60000" } });
  });
  afterAll(async () => svc?.close());

  const read = (target: TestService, token: string, identityId: string) =>
    target.endpoint("identities.get", { params: { identityId } }, { token }).then((r) => r.status);

  const usageOf = async (identityId: string) => {
    const row = await svc.app.db
      .selectFrom("identity_access_tokens")
      .select(["access_token_num_uses", "access_token_last_used_at"])
      .where("identity_id", "=", identityId)
      .executeTakeFirstOrThrow();
    return { uses: Number(row.access_token_num_uses), lastUsedAt: row.access_token_last_used_at };
  };

  describe("batched use counts", () => {
    it("a read with an unlimited token writes nothing; the next batch adds every use", async () => {
      const { identityId, token } = await identityWithToken(svc, { role: "member" });
      for (let i = 0; i < 3; i++) expect(await read(svc, token, identityId)).toBe(200);
      expect(await usageOf(identityId)).toEqual({ uses: 0, lastUsedAt: null });

      const before = Date.now();
      await svc.app.flushTokenUsage();
      const after = await usageOf(identityId);
      expect(after.uses).toBe(3);
      expect(new Date(after.lastUsedAt as string | Date).getTime()).toBeGreaterThanOrEqual(before - 5_000);

      await read(svc, token, identityId);
      await svc.app.flushTokenUsage();
      expect((await usageOf(identityId)).uses).toBe(4);
    });

    it("writes pending uses when the service shuts down", async () => {
      const { identityId, token } = await identityWithToken(svc, { role: "member" });
      const second = await startService({ kind, shareWith: svc, env: { KEYHOLD_TOKEN_USAGE_FLUSH_MS: "60000" } });
      try {
        for (let i = 0; i < 5; i++) expect(await read(second, token, identityId)).toBe(200);
        expect((await usageOf(identityId)).uses).toBe(0);
        await second.stop();
        expect((await usageOf(identityId)).uses).toBe(5);
      } finally {
        await second.close();
      }
    });

    it("writes the batch on its own once the interval passes", async () => {
      const quick = await startService({ kind, shareWith: svc, env: { KEYHOLD_TOKEN_USAGE_FLUSH_MS: "100" } });
      try {
        const { identityId, token } = await identityWithToken(quick, { role: "member" });
        expect(await read(quick, token, identityId)).toBe(200);
        await expect.poll(async () => (await usageOf(identityId)).uses, { timeout: 5_000 }).toBe(1);
      } finally {
        await quick.close();
      }
    });

    it("a uses limit of 5 admits exactly 5 of 50 requests spread over two instances", async () => {
      const { identityId, token } = await identityWithToken(svc, {
        role: "member",
        attach: { accessTokenNumUsesLimit: 5 },
      });
      const second = await startService({ kind, shareWith: svc });
      try {
        const statuses = await Promise.all(
          Array.from({ length: 50 }, (_, i) => read(i % 2 === 0 ? svc : second, token, identityId)),
        );
        expect(statuses.filter((s) => s === 200)).toHaveLength(5);
        expect(statuses.filter((s) => s === 401)).toHaveLength(45);
      } finally {
        await second.close();
      }
    });
  });

  describe("changes take effect on the very next request", () => {
    it("a token revoked while requests are in flight is refused by the next one, on every instance", async () => {
      const { identityId, token } = await identityWithToken(svc, { role: "member" });
      const second = await startService({ kind, shareWith: svc });
      try {
        // Both instances have verified (and cached) this token before it is revoked.
        expect(await read(svc, token, identityId)).toBe(200);
        expect(await read(second, token, identityId)).toBe(200);
        const inFlight = Array.from({ length: 20 }, (_, i) => read(i % 2 === 0 ? svc : second, token, identityId));
        const revoked = await svc.endpoint("tokenAuth.revoke", { params: { identityId } });
        expect(revoked.status).toBe(200);
        const settled = await Promise.all(inFlight);
        expect(settled.every((s) => s === 200 || s === 401)).toBe(true);
        expect(await read(svc, token, identityId)).toBe(401);
        expect(await read(second, token, identityId)).toBe(401);
      } finally {
        await second.close();
      }
    });

    it("a revoked token row is refused after the token was verified and cached", async () => {
      const { identityId, token } = await identityWithToken(svc, { role: "member" });
      expect(await read(svc, token, identityId)).toBe(200);
      await svc.app.db
        .updateTable("identity_access_tokens")
        .set({ is_access_token_revoked: 1 })
        .where("identity_id", "=", identityId)
        .execute();
      expect(await read(svc, token, identityId)).toBe(401);
    });

    it("a changed org role decides the next request", async () => {
      const { identityId, token } = await identityWithToken(svc, { role: "admin" });
      const createAs = (name: string) =>
        svc.endpoint(
          "identities.create",
          { body: { name, organizationId: svc.info.orgId, role: "no-access" } },
          { token },
        );
      expect((await createAs("made-by-admin")).status).toBe(200);

      const demote = await svc.endpoint("identities.update", { params: { identityId }, body: { role: "member" } });
      expect(demote.status).toBe(200);
      expect(endpoints["identities.update"].response.parse(demote.body).identity.id).toBe(identityId);
      expect((await createAs("made-by-member")).status).toBe(403);

      expect(
        (await svc.endpoint("identities.update", { params: { identityId }, body: { role: "admin" } })).status,
      ).toBe(200);
      expect((await createAs("made-by-admin-again")).status).toBe(200);
    });

    it("changed trusted IPs decide the next request", async () => {
      const { identityId, token } = await identityWithToken(svc, { role: "member" });
      const setTrusted = (ranges: unknown[]) =>
        svc.app.db
          .updateTable("identity_auth_methods")
          .set({ access_token_trusted_ips: JSON.stringify(ranges) })
          .where("identity_id", "=", identityId)
          .where("method", "=", "token-auth")
          .execute();
      const fromLoopback = () =>
        svc
          .endpoint("identities.get", { params: { identityId } }, { token, remoteAddress: "127.0.0.1" })
          .then((r) => r.status);

      expect(await fromLoopback()).toBe(200);
      await setTrusted([{ ipAddress: "10.0.0.0", type: "ipv4", prefix: 8 }]);
      expect(await fromLoopback()).toBe(403);
      await setTrusted([{ ipAddress: "127.0.0.1", type: "ipv4", prefix: 32 }]);
      expect(await fromLoopback()).toBe(200);
    });

    it("a removed auth method refuses the tokens it issued on the next request", async () => {
      const { identityId, token } = await identityWithToken(svc, { role: "member" });
      expect(await read(svc, token, identityId)).toBe(200);
      // Remove the configuration alone (as a half-finished change would), leaving the token row.
      await svc.app.db.deleteFrom("identity_auth_methods").where("identity_id", "=", identityId).execute();
      expect(await read(svc, token, identityId)).toBe(401);
    });
  });
});
