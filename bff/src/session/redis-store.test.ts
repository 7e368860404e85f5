import { createHash } from "node:crypto";
import { createServer } from "node:net";
import { errorNames } from "@keyhold/contract";
import { Redis } from "ioredis";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";
import { fakeAccessToken, IDENTITY_ID, membership, ORG_ID } from "../test/samples.ts";
import { RedisSessionStore } from "./redis-store.ts";
import { Sessions } from "./sessions.ts";
import type { Session } from "./store.ts";

// A real Redis, started by the test command; without one these suites are skipped.
const redisUrl = process.env.KEYHOLD_TEST_REDIS_URL;
if (!redisUrl) console.warn("[keyhold/bff] KEYHOLD_TEST_REDIS_URL is not set: the Redis session suites are skipped.");
const silent = pino({ level: "silent" });

const redisKey = (id: string) => `keyhold:session:${createHash("sha256").update(id).digest("hex")}`;

function sampleSession(id: string): Session {
  return {
    id,
    accessToken: fakeAccessToken(),
    identity: { id: IDENTITY_ID, name: "admin", role: "admin" },
    orgId: ORG_ID,
    createdAt: Date.now(),
    lastUsedAt: Date.now(),
  };
}

describe.skipIf(!redisUrl)("RedisSessionStore", () => {
  let redis: Redis;
  let store: RedisSessionStore;
  beforeAll(() => {
    redis = new Redis(redisUrl ?? "");
    store = RedisSessionStore.connect(redisUrl ?? "", silent);
  });
  afterAll(async () => {
    await store.close();
    await redis.quit();
  });

  it("stores, reads back and deletes a session", async () => {
    const session = sampleSession(`s-${Date.now()}-roundtrip`);
    await store.set(session, Date.now() + 60_000);
    expect(await store.get(session.id)).toEqual(session);
    await store.delete(session.id);
    expect(await store.get(session.id)).toBeUndefined();
  });

  it("does not bring back a deleted session when a late write-back arrives", async () => {
    const session = sampleSession(`s-${Date.now()}-refresh`);
    await store.set(session, Date.now() + 60_000);
    expect(await store.refresh({ ...session, lastUsedAt: Date.now() }, Date.now() + 60_000)).toBe(true);
    await store.delete(session.id);
    expect(await store.refresh({ ...session, lastUsedAt: Date.now() }, Date.now() + 60_000)).toBe(false);
    expect(await store.get(session.id)).toBeUndefined();
  });

  it("lets Redis expire a session when it ends", async () => {
    const session = sampleSession(`s-${Date.now()}-expiring`);
    await store.set(session, Date.now() + 150);
    expect(await store.get(session.id)).toEqual(session);
    await new Promise((r) => setTimeout(r, 400));
    expect(await store.get(session.id)).toBeUndefined();
  });

  it("keys sessions by a hash, so Redis never holds a usable cookie value as a key", async () => {
    const session = sampleSession(`s-${Date.now()}-hashed`);
    await store.set(session, Date.now() + 60_000);
    const keys = await redis.keys("keyhold:session:*");
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.some((k) => k.includes(session.id))).toBe(false);
    expect(keys.every((k) => /^keyhold:session:[0-9a-f]{64}$/.test(k))).toBe(true);
    await store.delete(session.id);
  });

  it("stores the session encrypted: Redis holds neither the token nor the identity in readable form", async () => {
    const session = sampleSession(`s-${Date.now()}-sealed`);
    await store.set(session, Date.now() + 60_000);
    const raw = (await redis.get(redisKey(session.id))) ?? "";
    expect(raw.length).toBeGreaterThan(40);
    expect(raw).not.toContain(session.accessToken);
    expect(raw).not.toContain(IDENTITY_ID);
    expect(Buffer.from(raw, "base64").toString("latin1")).not.toContain("admin");
    await store.delete(session.id);
  });

  it("refuses a value sealed for another session id (swapped in Redis)", async () => {
    const mine = sampleSession(`s-${Date.now()}-mine`);
    const theirs = sampleSession(`s-${Date.now()}-theirs`);
    await store.set(mine, Date.now() + 60_000);
    await store.set(theirs, Date.now() + 60_000);
    await redis.set(redisKey(mine.id), (await redis.get(redisKey(theirs.id))) ?? "", "PX", 60_000);
    expect(await store.get(mine.id)).toBeUndefined();
    expect(await store.get(theirs.id)).toEqual(theirs);
  });

  it("answers concurrent reads of different sessions, sent together, each with its own session", async () => {
    const sessions = Array.from({ length: 6 }, (_, i) => sampleSession(`s-${Date.now()}-batch-${i}`));
    for (const session of sessions) await store.set(session, Date.now() + 60_000);
    const gone = sessions[2] as Session;
    await store.delete(gone.id);
    const ids = [...sessions.map((x) => x.id), `s-${Date.now()}-never-existed`, (sessions[0] as Session).id];
    const read = await Promise.all(ids.map((id) => store.get(id)));
    expect(read).toEqual([...sessions.map((x) => (x === gone ? undefined : x)), undefined, sessions[0]]);
  });

  it("reads what another instance wrote since, and nothing once another instance deleted it", async () => {
    const other = RedisSessionStore.connect(redisUrl ?? "", silent);
    try {
      const session = sampleSession(`s-${Date.now()}-shared`);
      await store.set(session, Date.now() + 60_000);
      expect(await store.get(session.id)).toEqual(session);
      const renamed = {
        ...session,
        identity: { ...session.identity, name: "renamed" },
        lastUsedAt: session.lastUsedAt + 5,
      };
      expect(await other.refresh(renamed, Date.now() + 60_000)).toBe(true);
      expect(await store.get(session.id)).toEqual(renamed);
      await other.delete(session.id);
      expect(await store.get(session.id)).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it("ignores a stored value that is not a session", async () => {
    const session = sampleSession(`s-${Date.now()}-garbled`);
    await store.set(session, Date.now() + 60_000);
    expect(await redis.exists(redisKey(session.id))).toBe(1);
    await redis.set(redisKey(session.id), "{not json", "PX", 60_000);
    expect(await store.get(session.id)).toBeUndefined();
  });
});

describe.skipIf(!redisUrl)("Sessions in Redis", () => {
  let redis: Redis;
  let store: RedisSessionStore;
  let now: number;
  beforeAll(() => {
    redis = new Redis(redisUrl ?? "");
    now = Date.now();
    store = RedisSessionStore.connect(redisUrl ?? "", silent, () => now);
  });
  afterAll(async () => {
    await store.close();
    await redis.quit();
  });

  it("a request only reads its session until the last use is a touch interval old, then writes it back once", async () => {
    const sessions = new Sessions(store, { idleMs: 60_000, absoluteMs: 3_600_000, touchEveryMs: 1_000 }, () => now);
    const session = await sessions.create({
      accessToken: fakeAccessToken(),
      identity: sampleSession("x").identity,
      orgId: ORG_ID,
    });
    const written = await redis.get(redisKey(session.id));
    for (let i = 0; i < 10; i++) {
      now += 99;
      expect(await sessions.resume(session.id)).toMatchObject({ id: session.id });
    }
    // Every value is sealed with a fresh IV, so an unchanged value means nothing was written.
    expect(await redis.get(redisKey(session.id))).toBe(written);
    now += 10;
    expect(await sessions.resume(session.id)).toMatchObject({ lastUsedAt: now });
    const touched = await redis.get(redisKey(session.id));
    expect(touched).not.toBe(written);
    expect(await store.get(session.id)).toMatchObject({ lastUsedAt: now });
    // The idle timeout in Redis runs from the written use.
    expect(await redis.pttl(redisKey(session.id))).toBeGreaterThan(59_000);
    await sessions.end(session.id);
    expect(await sessions.resume(session.id)).toBeUndefined();
  });
});

describe.skipIf(!redisUrl)("BFF instances sharing Redis", () => {
  let upstream: RecordingUpstream;
  let a: TestBff;
  let b: TestBff;
  beforeAll(async () => {
    upstream = await startRecordingUpstream(() => ({ status: 200, body: { identity: membership() } }));
  });
  afterAll(() => upstream.close());
  beforeEach(async () => {
    const config = testConfig({ upstreamOrigin: upstream.origin, redisUrl });
    [a, b] = await Promise.all([startBff(config), startBff(config)]);
  });
  afterEach(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it("a session started on one instance works on another, and signing out on either ends it", async () => {
    const { cookie } = await logIn(a, fakeAccessToken());
    const onB = await b.send({ path: "/bff/session", headers: { ...CSRF, cookie } });
    expect(onB.status).toBe(200);
    expect(onB.json).toMatchObject({ identity: { id: IDENTITY_ID }, organization: { id: ORG_ID } });

    const out = await b.send({ method: "POST", path: "/bff/logout", headers: { ...CSRF, cookie } });
    expect(out.status).toBe(204);
    const onA = await a.send({ path: "/bff/session", headers: { ...CSRF, cookie } });
    expect(onA.status).toBe(401);
  });
});

describe("a Redis that cannot be reached", () => {
  let bff: TestBff;
  let upstream: RecordingUpstream;
  let closedPort: number;
  beforeAll(async () => {
    upstream = await startRecordingUpstream(() => ({ status: 200, body: { identity: membership() } }));
    closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === "object" && address ? address.port : 1));
      });
    });
    bff = await startBff(testConfig({ upstreamOrigin: upstream.origin, redisUrl: `redis://127.0.0.1:${closedPort}` }));
  });
  afterAll(async () => {
    await bff.close();
    await upstream.close();
  });

  it("fails every read sent together with 503, none open", async () => {
    const store = RedisSessionStore.connect(`redis://127.0.0.1:${closedPort}`, silent);
    try {
      const results = await Promise.allSettled(["a", "b", "c"].map((id) => store.get(`s-${id}`)));
      for (const result of results) {
        expect(result.status).toBe("rejected");
        expect(result.status === "rejected" && result.reason).toMatchObject({ statusCode: 503 });
      }
    } finally {
      await store.close();
    }
  });

  it("answers 503 in the error envelope instead of failing open or crashing", async () => {
    const res = await bff.send({
      method: "POST",
      path: "/bff/login",
      headers: { ...CSRF, "content-type": "application/json" },
      body: JSON.stringify({ accessToken: fakeAccessToken() }),
    });
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ statusCode: 503, error: errorNames.serviceUnavailable, message: /Sessions/ });
    expect(res.headers["set-cookie"]).toBeUndefined();
  });
});
