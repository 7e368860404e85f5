import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { dataFiles, loadConfig } from "../config.ts";
import { openDatabase } from "../db/database.ts";
import { preparedQuery } from "../db/prepared.ts";
import { createPgDatabase, type DatabaseKind, describeEachDatabase } from "../test/harness.ts";
import { UnitOfWork } from "./unit-of-work.ts";

/**
 * The unit of work through the service's own database handle (the wrapped driver, the prepared
 * reads), on both dialects, checked from a second connection that sees only what was committed.
 */

interface ProbeDb {
  probe: { id: string; note: string | null };
}

describeEachDatabase("unit of work", (kind: DatabaseKind) => {
  let db: Kysely<ProbeDb>;
  let close: () => Promise<void>;
  /** The ids committed, read on a connection of its own. */
  let committed: () => Promise<string[]>;

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-uow-"));
    const pgDb = kind === "postgres" ? await createPgDatabase() : undefined;
    const config = loadConfig({ KEYHOLD_DATA_DIR: dataDir, DATABASE_URL: pgDb?.url });
    const handle = await openDatabase(config, pino({ enabled: false }));
    db = handle.db as unknown as Kysely<ProbeDb>;
    await sql`CREATE TABLE probe (id text PRIMARY KEY, note text)`.execute(db);
    if (pgDb) {
      const client = new pg.Client({ connectionString: pgDb.url });
      await client.connect();
      committed = async () => (await client.query("SELECT id FROM probe ORDER BY id")).rows.map((r) => r.id);
      close = async () => {
        await client.end();
        await handle.db.destroy();
        await pgDb.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      };
    } else {
      const reader = new SqliteDatabase(dataFiles(config).sqlite, { readonly: true });
      committed = async () =>
        (reader.prepare("SELECT id FROM probe ORDER BY id").all() as { id: string }[]).map((r) => r.id);
      close = async () => {
        reader.close();
        await handle.db.destroy();
        fs.rmSync(dataDir, { recursive: true, force: true });
      };
    }
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    await db.deleteFrom("probe").execute();
  });

  const insert = (id: string) => db.insertInto("probe").values({ id, note: null }).execute();
  const ids = async () => (await db.selectFrom("probe").select("id").orderBy("id").execute()).map((r) => r.id);
  const failing = new Error("the service's work failed");

  /** Runs `work` in a unit and commits it, as a request does. */
  async function inUnit<T>(work: () => Promise<T>): Promise<T> {
    const unit = new UnitOfWork();
    const result = await unit.run(work);
    await unit.finish();
    return result;
  }

  it("commits nothing another connection can see before the unit finishes", async () => {
    const unit = new UnitOfWork();
    await unit.run(async () => {
      await insert("a");
      await db.transaction().execute(async (trx) => {
        await trx.insertInto("probe").values({ id: "b", note: null }).execute();
      });
      // The unit sees its own writes, through Kysely and through the prepared reads alike.
      expect(await ids()).toEqual(["a", "b"]);
    });
    expect(await committed()).toEqual([]);
    await unit.finish();
    expect(await committed()).toEqual(["a", "b"]);
  });

  it("lets prepared reads (which bypass Kysely outside a unit) see the unit's writes", async () => {
    const byId = preparedQuery(["id"], (d, v) =>
      (d as unknown as Kysely<ProbeDb>).selectFrom("probe").select("id").where("id", "=", v.id),
    ) as unknown as (d: Kysely<ProbeDb>, v: { id: string }) => Promise<{ id: string }[]>;
    await inUnit(async () => {
      expect(await byId(db, { id: "p" })).toEqual([]);
      await insert("p");
      expect(await byId(db, { id: "p" })).toEqual([{ id: "p" }]);
    });
    expect(await committed()).toEqual(["p"]);
  });

  it("rolls back only a failed service transaction, not the unit's other writes", async () => {
    await inUnit(async () => {
      await insert("before");
      await expect(
        db.transaction().execute(async (trx) => {
          await trx.insertInto("probe").values({ id: "inside", note: null }).execute();
          throw failing;
        }),
      ).rejects.toBe(failing);
      await insert("after");
    });
    expect(await committed()).toEqual(["after", "before"]);
  });

  it("undoes the transaction that began the unit's real transaction when it fails, and goes on", async () => {
    await inUnit(async () => {
      await expect(
        db.transaction().execute(async (trx) => {
          await trx.insertInto("probe").values({ id: "first", note: null }).execute();
          throw failing;
        }),
      ).rejects.toBe(failing);
      await db.transaction().execute((trx) => trx.insertInto("probe").values({ id: "second", note: null }).execute());
      // A savepoint now: a unique violation inside it takes only its own work back.
      await expect(
        db.transaction().execute(async (trx) => {
          await trx.insertInto("probe").values({ id: "third", note: null }).execute();
          await trx.insertInto("probe").values({ id: "second", note: null }).execute();
        }),
      ).rejects.toThrow();
      await insert("fourth");
    });
    expect(await committed()).toEqual(["fourth", "second"]);
  });

  it("keeps the unit's writes when a bare statement hits a unique key", async () => {
    await db.insertInto("probe").values({ id: "taken", note: null }).execute();
    await inUnit(async () => {
      // The first write of the unit fails: on PostgreSQL that aborts the transaction it began.
      await expect(insert("taken")).rejects.toThrow();
      await insert("one");
      await expect(insert("one")).rejects.toThrow();
      await db.updateTable("probe").set({ note: "kept" }).where("id", "=", "one").execute();
      await insert("two");
    });
    expect(await committed()).toEqual(["one", "taken", "two"]);
    expect(await db.selectFrom("probe").select("note").where("id", "=", "one").executeTakeFirst()).toEqual({
      note: "kept",
    });
  });

  it("commits nothing when the unit's last work fails", async () => {
    const unit = new UnitOfWork();
    await unit.run(() => insert("change"));
    await expect(
      unit.finish(async () => {
        await insert("event");
        throw failing;
      }),
    ).rejects.toBe(failing);
    expect(await committed()).toEqual([]);
  });

  it("writes the last work in a transaction of its own when the unit wrote nothing (a read)", async () => {
    const unit = new UnitOfWork();
    await unit.run(async () => expect(await ids()).toEqual([]));
    await unit.finish(async () => {
      await insert("event");
    });
    expect(await committed()).toEqual(["event"]);
  });

  it("refuses to commit when a rolled-back transaction took other writes of the unit with it", async () => {
    const unit = new UnitOfWork();
    await unit.run(async () => {
      let wrote!: Promise<unknown>;
      await expect(
        db.transaction().execute(async (trx) => {
          await trx.insertInto("probe").values({ id: "in-trx", note: null }).execute();
          // Work beside the transaction (not awaited by it) lands inside it.
          wrote = insert("beside");
          await wrote;
          throw failing;
        }),
      ).rejects.toBe(failing);
    });
    await expect(unit.finish()).rejects.toThrow(/other writes/);
    expect(await committed()).toEqual([]);
  });

  it("sends statements of work left running after the unit ended to the pool", async () => {
    let late!: Promise<unknown>;
    await inUnit(async () => {
      await insert("early");
      late = new Promise((resolve) => setTimeout(resolve, 20)).then(() => insert("late"));
    });
    await late;
    expect(await committed()).toEqual(["early", "late"]);
  });

  it("runs the transactions of one unit one after another", async () => {
    await inUnit(async () => {
      await insert("seed");
      await Promise.all(
        ["x", "y", "z"].map((id) =>
          db
            .transaction()
            .execute(async (trx) => {
              await trx.insertInto("probe").values({ id, note: null }).execute();
              await new Promise((resolve) => setTimeout(resolve, 5));
              if (id === "y") throw failing;
            })
            .catch(() => undefined),
        ),
      );
    });
    expect(await committed()).toEqual(["seed", "x", "z"]);
  });

  it("leaves statements outside any unit as they were (autocommit)", async () => {
    await insert("plain");
    expect(await committed()).toEqual(["plain"]);
    await db.transaction().execute((trx) => trx.insertInto("probe").values({ id: "trx", note: null }).execute());
    expect(await committed()).toEqual(["plain", "trx"]);
  });
});
