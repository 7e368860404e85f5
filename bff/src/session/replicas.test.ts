import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ServerProcess, startServerProcess } from "@keyhold/service/test/processes";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const redisUrl = process.env.KEYHOLD_TEST_REDIS_URL;
/** A logical database of its own, so other suites' sign-ins on the shared Redis never count against these limits. */
const REDIS_DB = 11;
const LOGIN_LIMIT = 6;
/** The limiter's key for sign-ins from loopback. */
const RATE_KEY = "keyhold:rate-limit:POST/bff/login-127.0.0.1";

describe.skipIf(!redisUrl)(
  `Two BFF processes sharing one Redis${redisUrl ? "" : " [skipped: set KEYHOLD_TEST_REDIS_URL to run]"}`,
  () => {
    let dataDir: string;
    let service: ServerProcess;
    let a: ServerProcess;
    let b: ServerProcess;
    let adminToken: string;
    let sharedRedisUrl: string;

    beforeAll(async () => {
      const sharedRedis = new URL(redisUrl as string);
      sharedRedis.pathname = `/${REDIS_DB}`;
      sharedRedisUrl = sharedRedis.toString();
      // Counters a previous run left in this database would shift the limit below.
      const admin = new Redis(sharedRedis.toString());
      await admin.del(RATE_KEY);
      await admin.quit();

      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-bff-replicas-"));
      service = await startServerProcess("service", { KEYHOLD_DATA_DIR: dataDir, LOG_LEVEL: "warn" });
      adminToken = fs.readFileSync(path.join(dataDir, "admin-token"), "utf8");
      const bffEnv = {
        KEYHOLD_UPSTREAM_URL: service.url,
        REDIS_URL: sharedRedis.toString(),
        KEYHOLD_LOGIN_RATE_LIMIT: String(LOGIN_LIMIT),
        KEYHOLD_LOGIN_RATE_WINDOW_SECONDS: "600",
        LOG_LEVEL: "warn",
      };
      [a, b] = await Promise.all([startServerProcess("bff", bffEnv), startServerProcess("bff", bffEnv)]);
    }, 120_000);
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop(), service?.stop()]);
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const csrf = { "x-csrf": "1" };
    const login = (bff: ServerProcess, accessToken: string) =>
      fetch(`${bff.url}/bff/login`, {
        method: "POST",
        headers: { ...csrf, "content-type": "application/json" },
        body: JSON.stringify({ accessToken }),
      });
    const cookieOf = (response: Response) => {
      const pair = response.headers.getSetCookie()[0]?.split(";")[0];
      if (!pair) throw new Error(`no session cookie (HTTP ${response.status})`);
      return pair;
    };
    const session = async (bff: ServerProcess, cookie: string) =>
      (await fetch(`${bff.url}/bff/session`, { headers: { ...csrf, cookie } })).status;
    const logout = async (bff: ServerProcess, cookie: string) =>
      (await fetch(`${bff.url}/bff/logout`, { method: "POST", headers: { ...csrf, cookie } })).status;

    it("keeps one session valid through either, and a sign-out through either ends it on both", async () => {
      const signedIn = await login(a, adminToken);
      expect(signedIn.status).toBe(200);
      const cookie = cookieOf(signedIn);
      expect(await session(b, cookie)).toBe(200);
      const me = (await (await fetch(`${a.url}/bff/session`, { headers: { ...csrf, cookie } })).json()) as {
        organization: { id: string };
      };
      const list = await fetch(`${b.url}/api/v1/identities?orgId=${me.organization.id}`, {
        headers: { ...csrf, cookie },
      });
      expect(list.status).toBe(200);
      expect(await logout(b, cookie)).toBe(204);
      expect(await session(a, cookie)).toBe(401);
      expect(await session(b, cookie)).toBe(401);

      // The other way round: signed in through B, signed out through A.
      const second = cookieOf(await login(b, adminToken));
      expect(await session(a, second)).toBe(200);
      expect(await logout(a, second)).toBe(204);
      expect(await session(b, second)).toBe(401);
      expect(await session(a, second)).toBe(401);
    }, 60_000);

    it("counts sign-in attempts against one limit, whichever BFF they reach", async () => {
      // The attempts left in the window (earlier tests signed in too), used up alternating between the two.
      const counter = new Redis(sharedRedisUrl);
      const used = Number((await counter.get(RATE_KEY)) ?? 0);
      await counter.quit();
      expect(used).toBeLessThan(LOGIN_LIMIT - 1);
      for (let i = used; i < LOGIN_LIMIT; i++) expect((await login(i % 2 ? a : b, "not-a-token")).status).toBe(401);
      expect((await login(a, "not-a-token")).status).toBe(429);
      expect((await login(b, adminToken)).status).toBe(429);
    }, 60_000);
  },
);
