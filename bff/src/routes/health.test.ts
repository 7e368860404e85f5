import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  freePort,
  type ServerProcess,
  type StoppableServer,
  startPostgres,
  startRedis,
  startServerProcess,
  waitUntil,
} from "@keyhold/service/test/processes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";

describe("BFF health and readiness against an Infisical-like upstream", () => {
  let upstream: RecordingUpstream;
  let bff: TestBff;
  beforeAll(async () => {
    upstream = await startRecordingUpstream();
    bff = await startBff(testConfig({ upstreamOrigin: upstream.origin }));
  });
  afterAll(async () => {
    await bff?.close();
    await upstream?.close();
  });

  it("answers /healthz and /readyz without the CSRF header, asking the upstream afresh each time", async () => {
    // Infisical has no /readyz (its console answers 404 or HTML there) and answers /api/status.
    upstream.respond((request) =>
      request.url === "/api/status"
        ? { status: 200, body: { date: "2030-01-01T00:00:00.000Z", message: "Ok" } }
        : { status: 404, body: { message: "Not found" } },
    );
    expect((await bff.send({ path: "/healthz" })).json).toEqual({ status: "ok" });
    const ready = await bff.send({ path: "/readyz" });
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ status: "ready", checks: { upstream: "ok" } });
    expect(ready.headers["cache-control"]).toBe("no-store");
    expect(upstream.requests.map((r) => r.url)).toEqual(["/readyz", "/api/status"]);
    // No token, cookie or browser header goes upstream with a probe.
    expect(
      upstream.requests.every((r) => r.headers.authorization === undefined && r.headers.cookie === undefined),
    ).toBe(true);

    upstream.respond(() => ({ status: 503, body: { message: "maintenance" } }));
    const down = await bff.send({ path: "/readyz" });
    expect(down.status).toBe(503);
    expect(down.json).toEqual({
      status: "unavailable",
      failing: ["upstream"],
      checks: { upstream: "answered HTTP 503" },
    });

    upstream.respond(() => ({ status: 200, body: { message: "Ok" } }));
    expect((await bff.send({ path: "/readyz" })).status).toBe(200);
  });

  it("is not ready while the upstream is unreachable, naming it", async () => {
    // A port just found free, where nothing listens.
    const lonely = await startBff(testConfig({ upstreamOrigin: `http://127.0.0.1:${await freePort()}` }));
    try {
      const down = await lonely.send({ path: "/readyz" });
      expect(down.status).toBe(503);
      expect(down.json).toEqual({ status: "unavailable", failing: ["upstream"], checks: { upstream: "ECONNREFUSED" } });
      expect((await lonely.send({ path: "/healthz" })).status).toBe(200);
    } finally {
      await lonely.close();
    }
  });

  it("keeps the probes out of the API: they are not forwarded and the contract's paths stay where they were", async () => {
    upstream.requests.length = 0;
    expect((await bff.send({ path: "/api/readyz", headers: { "x-csrf": "1" } })).status).toBe(404);
    expect((await bff.send({ path: "/bff/readyz", headers: { "x-csrf": "1" } })).status).toBe(404);
    expect(upstream.requests).toEqual([]);
  });
});

const dependencies = {
  postgres: process.env.KEYHOLD_TEST_DATABASE_URL !== undefined,
  redis: process.env.KEYHOLD_TEST_REDIS_URL !== undefined,
};
const canRun = dependencies.postgres && dependencies.redis;

describe.skipIf(!canRun)(
  `Readiness of real processes while PostgreSQL and Redis stop and start again${canRun ? "" : " [skipped: set KEYHOLD_TEST_DATABASE_URL and KEYHOLD_TEST_REDIS_URL to run]"}`,
  () => {
    // A PostgreSQL and a Redis of their own: stopping the shared test servers would break other suites.
    let postgres: StoppableServer;
    let redis: StoppableServer;
    let service: ServerProcess;
    let bff: ServerProcess;
    let dataDir: string;
    beforeAll(async () => {
      [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-bff-ready-"));
      service = await startServerProcess("service", { KEYHOLD_DATA_DIR: dataDir, DATABASE_URL: postgres.url });
      bff = await startServerProcess("bff", { KEYHOLD_UPSTREAM_URL: service.url, REDIS_URL: redis.url });
    }, 120_000);
    afterAll(async () => {
      await Promise.all([bff?.stop(), service?.stop()]);
      await Promise.all([postgres?.destroy(), redis?.destroy()]);
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const probe = async (url: string) => {
      const response = await fetch(`${url}/readyz`);
      return { status: response.status, json: (await response.json()) as unknown };
    };

    it("goes 503 naming PostgreSQL (service) and the upstream (BFF), then Redis (BFF), and recovers by itself", async () => {
      expect(await probe(service.url)).toEqual({
        status: 200,
        json: { status: "ready", checks: { database: "ok", migrations: "ok" } },
      });
      expect(await probe(bff.url)).toEqual({
        status: 200,
        json: { status: "ready", checks: { upstream: "ok", redis: "ok" } },
      });

      await postgres.stop();
      expect(await probe(service.url)).toMatchObject({ status: 503, json: { failing: ["database"] } });
      expect(await probe(bff.url)).toEqual({
        status: 503,
        json: {
          status: "unavailable",
          failing: ["upstream"],
          checks: { upstream: "not ready (database)", redis: "ok" },
        },
      });
      await postgres.start();
      await waitUntil("the service to be ready again", async () => (await probe(service.url)).status === 200);
      await waitUntil("the BFF to be ready again", async () => (await probe(bff.url)).status === 200);

      await redis.stop();
      const noRedis = await probe(bff.url);
      expect(noRedis).toMatchObject({ status: 503, json: { status: "unavailable", failing: ["redis"] } });
      expect((noRedis.json as { checks: { upstream: string } }).checks.upstream).toBe("ok");
      // The service does not use Redis.
      expect((await probe(service.url)).status).toBe(200);
      await redis.start();
      await waitUntil("the BFF to see Redis again", async () => (await probe(bff.url)).status === 200);
      expect(await probe(bff.url)).toEqual({
        status: 200,
        json: { status: "ready", checks: { upstream: "ok", redis: "ok" } },
      });
    }, 120_000);
  },
);
