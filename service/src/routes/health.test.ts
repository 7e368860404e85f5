import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { type StoppableServer, startPostgres, waitUntil } from "../test/processes.ts";

describeEachDatabase("Health and readiness", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it("answers /healthz and /readyz without a token", async () => {
    expect(await svc.call("GET", "/healthz", { token: null })).toEqual({ status: 200, body: { status: "ok" } });
    expect(await svc.call("GET", "/readyz", { token: null })).toEqual({
      status: 200,
      body: { status: "ready", checks: { database: "ok", migrations: "ok" } },
    });
  });

  it("is not ready while a migration this build knows has not run, and names it", async () => {
    const last = await svc.app.db
      .withTables<{ kysely_migration: { name: string; timestamp: string } }>()
      .selectFrom("kysely_migration")
      .selectAll()
      .orderBy("name", "desc")
      .executeTakeFirstOrThrow();
    await svc.app.db
      .withTables<{ kysely_migration: { name: string } }>()
      .deleteFrom("kysely_migration")
      .where("name", "=", last.name)
      .execute();
    try {
      expect(await svc.call("GET", "/readyz", { token: null })).toEqual({
        status: 503,
        body: {
          status: "unavailable",
          failing: ["migrations"],
          checks: { database: "ok", migrations: `pending: ${last.name}` },
        },
      });
    } finally {
      await svc.app.db
        .withTables<{ kysely_migration: { name: string; timestamp: string } }>()
        .insertInto("kysely_migration")
        .values(last)
        .execute();
    }
    expect((await svc.call("GET", "/readyz", { token: null })).status).toBe(200);
  });
});

const canRunPostgres = process.env.KEYHOLD_TEST_DATABASE_URL !== undefined;

describe.skipIf(!canRunPostgres)(
  `Readiness while PostgreSQL stops and starts again${canRunPostgres ? "" : " [skipped: set KEYHOLD_TEST_DATABASE_URL to run]"}`,
  () => {
    let postgres: StoppableServer;
    let svc: TestService;
    beforeAll(async () => {
      // A cluster of its own: stopping the shared test server would break every other suite.
      postgres = await startPostgres();
      svc = await startService({ kind: "sqlite", env: { DATABASE_URL: postgres.url } });
    });
    afterAll(async () => {
      await svc?.close();
      await postgres?.destroy();
    });

    const readyz = () => svc.call("GET", "/readyz", { token: null });

    it("answers 503 naming the database while it is down, and 200 again once it is back", async () => {
      expect(svc.info.dialect).toBe("postgres");
      expect((await readyz()).status).toBe(200);

      await postgres.stop();
      const down = await readyz();
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({
        status: "unavailable",
        failing: ["database"],
        checks: { migrations: "not checked" },
      });
      // A request that needs the database fails cleanly meanwhile, and /healthz still answers.
      expect((await svc.call("GET", "/healthz", { token: null })).status).toBe(200);

      await postgres.start();
      await waitUntil("readyz to recover", async () => (await readyz()).status === 200);
      expect((await readyz()).body).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok" } });
      expect((await svc.endpoint("identities.get", { params: { identityId: svc.info.adminIdentityId } })).status).toBe(
        200,
      );
    }, 90_000);
  },
);
