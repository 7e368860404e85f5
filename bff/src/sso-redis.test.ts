import { BffSessionSchema } from "@keyhold/contract";
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisFlowStore } from "./oidc/flow-store.ts";
import { RedisSessionStore } from "./session/redis-store.ts";
import { CSRF, type TestBff } from "./test/harness.ts";
import type { TestOidcProvider } from "./test/oidc-provider.ts";
import {
  authorizationResponse,
  browserFor,
  CLIENT_SECRET,
  PUBLIC_URL,
  type RealService,
  ssoIdentity,
  startProvider,
  startService,
  startSsoBff,
} from "./test/sso-setup.ts";

const redisUrl = process.env.KEYHOLD_TEST_REDIS_URL;
if (!redisUrl)
  console.warn("[keyhold/bff] KEYHOLD_TEST_REDIS_URL is not set: the Redis single sign-on suite is skipped.");

const eve = { email: "eve@acme.test", password: "eve-pass" };

describe.skipIf(!redisUrl)("single sign-on with Redis", () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(redisUrl ?? "");
  });
  afterAll(async () => {
    await redis?.quit();
  });

  it("keeps a flow sealed, under a hash of its id, and hands it out once", async () => {
    const store = new RedisFlowStore(redis, pino({ level: "silent" }));
    const id = `flow-${Date.now()}-${Math.random()}`;
    await store.put(id, { nonce: "n-value", codeVerifier: "v-value" }, 60_000);
    const keys = await redis.keys("keyhold:sso:*");
    const values = await Promise.all(keys.map((key) => redis.get(key)));
    expect(keys.some((key) => key.includes(id))).toBe(false);
    expect(values.join("")).not.toContain("v-value");
    expect(await store.get(id)).toEqual({ nonce: "n-value", codeVerifier: "v-value" });
    const taken = await Promise.all([store.take(id), store.take(id), store.take(id)]);
    expect(taken.filter((value) => value !== undefined)).toEqual([{ nonce: "n-value", codeVerifier: "v-value" }]);
    expect(await store.get(id)).toBeUndefined();
  });

  describe("two BFFs sharing one Redis", () => {
    let service: RealService;
    let provider: TestOidcProvider;
    let one: TestBff;
    let two: TestBff;
    beforeAll(async () => {
      [service, provider] = await Promise.all([startService(), startProvider()]);
      const identityId = await ssoIdentity(service, provider, { name: "shared" });
      const env = {
        REDIS_URL: redisUrl ?? "",
        KEYHOLD_OIDC_ISSUER: provider.issuer,
        KEYHOLD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
        KEYHOLD_OIDC_IDENTITY_ID: identityId,
      };
      [{ bff: one }, { bff: two }] = await Promise.all([startSsoBff(service, env), startSsoBff(service, env)]);
    });
    afterAll(async () => {
      await Promise.all([one?.close(), two?.close()]);
      await Promise.all([service?.close(), provider?.close()]);
    });

    it("a flow started on one finishes on the other, the session with its person is read on both, and a replay fails", async () => {
      const onOne = browserFor(one);
      const callback = await authorizationResponse(onOne, eve);
      const flowCookie = onOne.cookies(PUBLIC_URL).get("__Host-keyhold-sso") ?? "";
      // The same browser, its next request balanced onto the other instance.
      const onTwo = browserFor(two);
      onTwo.cookies(PUBLIC_URL).set("__Host-keyhold-sso", flowCookie);
      const landed = await onTwo.request(callback.toString());
      expect(landed.location).toBe(`${PUBLIC_URL}/projects`);
      const cookie = onTwo.consoleCookieHeader();
      for (const bff of [one, two]) {
        const view = BffSessionSchema.parse(
          (await bff.send({ path: "/bff/session", headers: { ...CSRF, cookie } })).json,
        );
        expect(view.person?.email).toBe("eve@acme.test");
      }

      // The stored session keeps the fields single sign-on needs (renewal, the person).
      const sessionId = onTwo.cookies(PUBLIC_URL).get("__Host-keyhold") ?? "";
      const reader = new RedisSessionStore(redis, pino({ level: "silent" }));
      const stored = await reader.get(sessionId);
      expect(stored?.person).toMatchObject({ email: "eve@acme.test", provider: "Acme ID" });
      expect(stored?.oidc?.refreshToken).toMatch(/./);
      expect(stored?.tokenRenewAt).toBeGreaterThan(0);

      const replay = browserFor(one);
      replay.cookies(PUBLIC_URL).set("__Host-keyhold-sso", flowCookie);
      const refused = await replay.request(callback.toString());
      expect(refused.location).toBe(`${PUBLIC_URL}/sign-in?sso=failed`);
      expect(replay.cookies(PUBLIC_URL).has("__Host-keyhold")).toBe(false);
    });
  });
});
