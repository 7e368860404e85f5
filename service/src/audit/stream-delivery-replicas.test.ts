import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { endpoints } from "@keyhold/contract";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/database.ts";
import {
  appendEvents,
  eventIdsAfter,
  type EventStore,
  fastDelivery,
  lastSeq,
  type StreamReceiver,
  startStreamReceiver,
  untilAccepted,
} from "../test/audit-streams.ts";
import { createPgDatabase, type DatabaseKind } from "../test/harness.ts";
import { type ServerProcess, startServerProcess, waitUntil } from "../test/processes.ts";

const pgAdminUrl = process.env.KEYHOLD_TEST_DATABASE_URL;

/** The ids in the order first received, and how many arrived more than once. */
function firstArrivals(ids: string[]): { order: string[]; duplicates: number } {
  const seen = new Set<string>();
  const order: string[] = [];
  for (const id of ids) {
    if (!seen.has(id)) order.push(id);
    seen.add(id);
  }
  return { order, duplicates: ids.length - order.length };
}

const BATCH = 5;
const LEASE_MS = 2_000;

/**
 * Two service processes on one database: instances behind a balancer share the database and the
 * root key (on SQLite, the data dir that holds the file), nothing else. The test writes events
 * through its own connection as well, standing for a third writer.
 */
function suite(kind: DatabaseKind) {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function setUp() {
    const rootKey = randomBytes(32).toString("base64");
    const database = kind === "postgres" ? await createPgDatabase() : undefined;
    if (database) cleanup.push(() => database.drop());
    const sharedDir = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-stream-replica-"));
    cleanup.push(async () => fs.rmSync(sharedDir, { recursive: true, force: true }));
    // Each instance has a data dir of its own on PostgreSQL; on SQLite the dir holds the shared file.
    const dirOf = (n: number) => (database ? fs.mkdtempSync(path.join(sharedDir, `instance-${n}-`)) : sharedDir);
    const dirs = [dirOf(1), dirOf(2)] as const;
    const start = async (dataDir: string): Promise<ServerProcess> => {
      const server = await startServerProcess("service", {
        KEYHOLD_DATA_DIR: dataDir,
        DATABASE_URL: database?.url,
        KEYHOLD_ROOT_KEY: rootKey,
        LOG_LEVEL: "warn",
        ...fastDelivery,
        KEYHOLD_AUDIT_STREAM_BATCH_SIZE: String(BATCH),
        KEYHOLD_AUDIT_STREAM_LEASE_MS: String(LEASE_MS),
      });
      cleanup.push(async () => {
        server.child.kill("SIGKILL");
        await server.exited;
      });
      return server;
    };
    // One after the other: the first sets up the empty database, the second finds it set up.
    const a = await start(dirs[0]);
    const b = await start(dirs[1]);
    const adminDir = dirs[0];
    const adminToken = fs.readFileSync(path.join(adminDir, "admin-token"), "utf8");
    const config = loadConfig({ DATABASE_URL: database?.url, KEYHOLD_ROOT_KEY: rootKey, KEYHOLD_DATA_DIR: adminDir });
    const handle = await openDatabase(config, pino({ level: "silent" }));
    cleanup.push(() => handle.db.destroy());
    const org = await handle.db.selectFrom("organizations").select("id").executeTakeFirstOrThrow();
    const store: EventStore = { db: handle.db, dialect: handle.dialect, orgId: org.id };
    return { a, b, adminToken, store };
  }

  async function receiverOf(options: { delayMs?: number } = {}): Promise<StreamReceiver> {
    const receiver = await startStreamReceiver(options);
    cleanup.push(() => receiver.close());
    return receiver;
  }

  async function createStream(server: ServerProcess, token: string, url: string): Promise<string> {
    const created = await fetch(`${server.url}/api/v1/audit-log-streams/custom`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ credentials: { url, headers: [] } }),
    });
    expect(created.status).toBe(200);
    return endpoints["auditLogStreams.create"].response.parse(await created.json()).auditLogStream.id;
  }

  /** Changes made through an instance's API: each records its event (create-identity). */
  async function changeThrough(server: ServerProcess, token: string, orgId: string, label: string): Promise<void> {
    const res = await fetch(`${server.url}/api/v1/identities`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: label, organizationId: orgId, role: "no-access" }),
    });
    expect(res.status).toBe(200);
  }

  const leaseOwner = async (store: EventStore, streamId: string) =>
    (
      await store.db
        .selectFrom("audit_log_streams")
        .select("lease_owner")
        .where("id", "=", streamId)
        .executeTakeFirstOrThrow()
    ).lease_owner;

  it("delivers every event of both, in order and once, while the receiver fails now and then and one stops", async () => {
    const { a, b, adminToken, store } = await setUp();
    const receiver = await receiverOf();
    const from = await lastSeq(store);
    await createStream(b, adminToken, receiver.url);

    // Both instances take changes, the test writes too; every fourth round a delivery is
    // refused, which gives the stream up to whichever instance tries first after the wait.
    for (let round = 0; round < 12; round++) {
      await Promise.all([
        changeThrough(a, adminToken, store.orgId, `a-${round}`),
        changeThrough(b, adminToken, store.orgId, `b-${round}`),
        appendEvents(store, 2, `direct-${round}`),
      ]);
      if (round % 4 === 3) receiver.failNext(1);
    }
    // One instance stops cleanly (its lease is given up); the other carries on alone.
    expect(await b.stop()).toBe(0);
    await changeThrough(a, adminToken, store.orgId, "after-stop");
    await appendEvents(store, 3, "after-stop");

    const expected = await eventIdsAfter(store, from);
    await untilAccepted(receiver, expected, 60_000);
    const { order, duplicates } = firstArrivals(receiver.acceptedIds());
    expect(order).toEqual(expected);
    // No instance died holding a lease, so nothing arrived twice.
    expect(duplicates).toBe(0);
    expect(receiver.deliveries.some((d) => d.status === 500)).toBe(true);
  }, 120_000);

  it("after a kill -9 mid-delivery the other instance takes over: every event, in order, the batch in flight at most twice", async () => {
    const { a, b, adminToken, store } = await setUp();
    // A receiver that takes its time, so that a POST is in flight when the kill comes.
    const receiver = await receiverOf({ delayMs: 150 });
    const from = await lastSeq(store);
    const streamId = await createStream(a, adminToken, receiver.url);

    await appendEvents(store, 8 * BATCH, "before-kill");
    await waitUntil("a delivery in flight", async () => receiver.deliveries.length >= 2);
    const owner = await leaseOwner(store, streamId);
    const holder = [a, b].find((s) => owner?.includes(`/${s.child.pid}/`));
    if (!holder) throw new Error(`no instance holds the lease (${owner})`);
    const survivor = holder === a ? b : a;
    const killedAt = Date.now();
    holder.child.kill("SIGKILL");
    await holder.exited;

    await changeThrough(survivor, adminToken, store.orgId, "after-kill");
    await appendEvents(store, 2 * BATCH, "after-kill");
    const expected = await eventIdsAfter(store, from);
    await untilAccepted(receiver, expected, 60_000);
    const { order, duplicates } = firstArrivals(receiver.acceptedIds());
    expect(order).toEqual(expected);
    // Only the batch in flight at the kill may arrive twice.
    expect(duplicates).toBeLessThanOrEqual(BATCH);
    // The survivor waited for the lease to run out, then took the stream.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(LEASE_MS - 500);
    expect(await leaseOwner(store, streamId)).toContain(`/${survivor.child.pid}/`);
    console.info(`[${kind}] stream takeover after kill -9: ${expected.length} events, ${duplicates} delivered twice`);
  }, 120_000);
}

describe("audit log streams: two service processes on one SQLite file", () => suite("sqlite"));
describe.skipIf(!pgAdminUrl)(
  `audit log streams: two service processes on one PostgreSQL database${pgAdminUrl ? "" : " [skipped: set KEYHOLD_TEST_DATABASE_URL to run]"}`,
  () => suite("postgres"),
);
