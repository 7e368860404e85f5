import {
  AUDIT_STREAM_TEST_EVENT_TYPE,
  AuditStreamBatchSchema,
  endpoints,
  LegacyAuditStreamEventSchema,
} from "@keyhold/contract";
import pino from "pino";
import { afterEach, expect, it } from "vitest";
import { openDatabase } from "../db/database.ts";
import {
  appendEvents,
  createStream,
  eventIdsAfter,
  fastDelivery,
  lastSeq,
  startStreamReceiver,
  storeOf,
  untilAccepted,
} from "../test/audit-streams.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { waitUntil } from "../test/processes.ts";
import { retryDelay } from "./stream-delivery.ts";

const DAY_MS = 86_400_000;

/** Delivery of stored events to a real receiver on loopback, through the running service. */
describeEachDatabase("audit log streams: delivery", (kind) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  const service = async (env: Record<string, string> = {}, shareWith?: TestService) => {
    const svc = await startService({ kind, env: { ...fastDelivery, ...env }, ...(shareWith && { shareWith }) });
    cleanup.push(() => (shareWith ? svc.stop() : svc.close()));
    return svc;
  };
  const receiverOf = async (failFirst = 0) => {
    const receiver = await startStreamReceiver({ failFirst });
    cleanup.push(() => receiver.close());
    return receiver;
  };
  const statusOf = async (svc: TestService, streamId: string) => {
    const res = await svc.endpoint("auditLogStreams.status");
    expect(res.status).toBe(200);
    const status = endpoints["auditLogStreams.status"].response.parse(res.body).streams.find((s) => s.id === streamId);
    if (!status) throw new Error(`no status for ${streamId}`);
    return status;
  };

  it("delivers every event in order, in batches, once a receiver that failed its first 20 deliveries recovers", async () => {
    const svc = await service({ KEYHOLD_AUDIT_STREAM_BATCH_SIZE: "7" });
    const receiver = await receiverOf(20);
    const store = storeOf(svc);
    const from = await lastSeq(store);
    const streamId = await createStream(svc, receiver.url, [{ key: "X-Collector-Key", value: "collector-key-1" }]);
    for (let round = 0; round < 5; round++) await appendEvents(store, 6, `round-${round}`);

    await waitUntil("the receiver's 20 refusals", async () => receiver.deliveries.length >= 20);
    const expected = await eventIdsAfter(store, from);
    await untilAccepted(receiver, expected);

    expect(receiver.deliveries.filter((d) => d.status === 500)).toHaveLength(20);
    expect(receiver.acceptedIds()).toEqual(expected);
    for (const delivery of receiver.deliveries) {
      const batch = AuditStreamBatchSchema.parse(delivery.body);
      expect(batch.length).toBeGreaterThan(0);
      expect(batch.length).toBeLessThanOrEqual(7);
      expect(delivery.headers["x-collector-key"]).toBe("collector-key-1");
      expect(delivery.headers["content-type"]).toBe("application/json");
    }
    const [first] = AuditStreamBatchSchema.parse(receiver.deliveries.find((d) => d.status === 200)?.body);
    // The organisation's default retention (90 days) dates the event's expiry.
    expect(Date.parse(first?.expiresAt ?? "") - Date.parse(first?.createdAt ?? "")).toBe(90 * DAY_MS);

    await waitUntil("the state to catch up", async () => (await statusOf(svc, streamId)).backlog === 0);
    const status = await statusOf(svc, streamId);
    expect(status).toMatchObject({ failures: 0, lastError: "The receiver answered 500", nextAttemptAt: null });
    expect(status.lastSuccessAt).not.toBeNull();
    expect(Date.parse(status.lastSuccessAt ?? "")).toBeGreaterThan(Date.parse(status.lastErrorAt ?? ""));
  });

  it("shows the backlog, the last error and the next attempt while the receiver fails", async () => {
    const svc = await service({
      KEYHOLD_AUDIT_STREAM_RETRY_MIN_MS: "60000",
      KEYHOLD_AUDIT_STREAM_RETRY_MAX_MS: "60000",
    });
    const receiver = await receiverOf(1_000);
    const streamId = await createStream(svc, receiver.url);
    const store = storeOf(svc);
    const from = await lastSeq(store);
    await appendEvents(store, 4);
    await waitUntil("a failed delivery", async () => (await statusOf(svc, streamId)).failures > 0);
    const status = await statusOf(svc, streamId);
    expect(status).toMatchObject({
      backlog: (await eventIdsAfter(store, from)).length,
      failures: 1,
      lastError: "The receiver answered 500",
      lastSuccessAt: null,
      streamMode: "batch",
    });
    // Waiting out the backoff: 30 to 60 s away.
    expect(Date.parse(status.nextAttemptAt ?? "") - Date.now()).toBeGreaterThan(25_000);
    expect(receiver.deliveries).toHaveLength(1);
  });

  it("delivers what was committed while it was stopped, and what it had not delivered, after a restart", async () => {
    const first = await service();
    const receiver = await receiverOf();
    const store = storeOf(first);
    const from = await lastSeq(store);
    const streamId = await createStream(first, receiver.url);
    await appendEvents(store, 5, "before");
    await untilAccepted(receiver, await eventIdsAfter(store, from));

    // The receiver goes down, events pile up, and the service stops.
    receiver.failNext(1_000_000);
    await appendEvents(store, 5, "undelivered");
    await waitUntil("a refused delivery", async () => receiver.deliveries.some((d) => d.status === 500));
    await first.stop();

    // Written while no service runs (by another instance, say).
    const offline = await openDatabase(first.config, pino({ level: "silent" }));
    try {
      await appendEvents({ db: offline.db, dialect: offline.dialect, orgId: first.info.orgId }, 5, "while-stopped");
    } finally {
      await offline.db.destroy();
    }

    receiver.failNext(0);
    const second = await service({}, first);
    const expected = await eventIdsAfter(storeOf(second), from);
    await untilAccepted(receiver, expected);
    expect(receiver.acceptedIds()).toEqual(expected);
    expect(expected.length).toBeGreaterThanOrEqual(15);
    await waitUntil("the state to catch up", async () => (await statusOf(second, streamId)).backlog === 0);
  });

  it("sends a stream made on the October 2024 route one POST per event, naming the project", async () => {
    const svc = await service();
    const receiver = await receiverOf(3);
    const store = storeOf(svc);
    const created = await svc.endpoint("auditLogStreams.createLegacy", { body: { url: receiver.url } });
    expect(created.status).toBe(200);
    const from = await lastSeq(store);
    await appendEvents(store, 6);
    const expected = await eventIdsAfter(store, from);
    await untilAccepted(receiver, expected);
    expect(receiver.acceptedIds()).toEqual(expected);
    for (const delivery of receiver.deliveries) {
      expect(Array.isArray(delivery.body)).toBe(false);
      expect(LegacyAuditStreamEventSchema.parse(delivery.body)).toMatchObject({
        projectName: null,
        orgId: svc.info.orgId,
      });
    }
  });

  it("skips pruned events", async () => {
    const svc = await service();
    const receiver = await receiverOf();
    const store = storeOf(svc);
    const ids = await appendEvents(store, 6);
    const pruned = [ids[1], ids[4]] as string[];
    await svc.app.db
      .updateTable("audit_events")
      .set({ pruned: 1, event_metadata: null, actor_metadata: null })
      .where("id", "in", pruned)
      .execute();
    // A stream starts after the newest event; this one is moved back to before the first.
    const streamId = await createStream(svc, receiver.url);
    await svc.app.db.updateTable("audit_log_streams").set({ cursor_seq: 0 }).where("id", "=", streamId).execute();
    const expected = await eventIdsAfter(store, 0);
    await untilAccepted(receiver, expected);
    expect(receiver.acceptedIds()).toEqual(expected);
    expect(receiver.acceptedIds()).not.toContain(pruned[0]);
    expect(receiver.acceptedIds()).toEqual(ids.filter((id) => !pruned.includes(id)));
  });

  it("leaves a stream to the instance holding its lease until the lease runs out", async () => {
    const svc = await service();
    const receiver = await receiverOf();
    const streamId = await createStream(svc, receiver.url);
    const leaseUntil = Date.now() + 1_500;
    await svc.app.db
      .updateTable("audit_log_streams")
      .set({ lease_owner: "another-instance", lease_until: new Date(leaseUntil).toISOString() })
      .where("id", "=", streamId)
      .execute();
    const store = storeOf(svc);
    const from = await lastSeq(store);
    await appendEvents(store, 3);
    const expected = await eventIdsAfter(store, from);
    await untilAccepted(receiver, expected);
    expect(Date.now()).toBeGreaterThanOrEqual(leaseUntil);
    expect(receiver.acceptedIds()).toEqual(expected);
  });

  it("sends one test event on request and records the outcome in the stream's state", async () => {
    const svc = await service();
    const receiver = await receiverOf();
    const streamId = await createStream(svc, receiver.url, [{ key: "X-Collector-Key", value: "k-1" }]);
    const sent = await svc.endpoint("auditLogStreams.test", { params: { provider: "custom", streamId } });
    expect(sent.body).toEqual({ delivered: true, status: 200, error: null });
    expect(receiver.deliveries).toHaveLength(1);
    const [event] = AuditStreamBatchSchema.parse(receiver.deliveries[0]?.body);
    expect(event).toMatchObject({
      eventType: AUDIT_STREAM_TEST_EVENT_TYPE,
      orgId: svc.info.orgId,
      actor: "identity",
      actorMetadata: { identityId: svc.info.adminIdentityId, authMethod: "token-auth" },
      eventMetadata: { auditLogStreamId: streamId },
    });
    expect(receiver.deliveries[0]?.headers["x-collector-key"]).toBe("k-1");
    expect((await statusOf(svc, streamId)).lastSuccessAt).not.toBeNull();

    receiver.failNext(1);
    const refused = await svc.endpoint("auditLogStreams.test", { params: { provider: "custom", streamId } });
    expect(refused.body).toEqual({ delivered: false, status: 500, error: "The receiver answered 500" });
    expect(await statusOf(svc, streamId)).toMatchObject({ lastError: "Test event: The receiver answered 500" });
    // No stored event was involved: the test events are the only deliveries.
    expect(receiver.deliveries).toHaveLength(2);
  });
});

it("waits twice as long after each failure, jittered in the upper half, up to the ceiling", () => {
  expect(retryDelay(1, 1_000, 60_000, () => 0)).toBe(500);
  expect(retryDelay(1, 1_000, 60_000, () => 1)).toBe(1_000);
  expect(retryDelay(4, 1_000, 60_000, () => 1)).toBe(8_000);
  expect(retryDelay(20, 1_000, 60_000, () => 1)).toBe(60_000);
  expect(retryDelay(200, 1_000, 60_000, () => 0)).toBe(30_000);
});
