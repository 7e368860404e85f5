import { endpoints } from "@keyhold/contract";
import { recording } from "@keyhold/fixtures";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  appendEvents,
  createStream,
  eventIdsAfter,
  fastDelivery,
  lastSeq,
  type StreamReceiver,
  startStreamReceiver,
  storeOf,
  untilAccepted,
} from "../test/audit-streams.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { unusedLoopbackUrl } from "../test/loopback.ts";
import { shapeOf, shapesSideBySide } from "../test/shapes.ts";

/**
 * Streams answer with the recorded servers' shapes and messages: the mid-2026 server's
 * (infisical-samples-2026-more 002–010, 117–128) and the October 2024 server's on its routes
 * (infisical-samples-more 002–008, 098–112), and the receiver gets the recorded payloads. Not
 * followed on purpose: `options` names only the provider Keyhold delivers to; a failed ping on
 * the 2024 route answers 400 with the reason, not 500; a 2024 update without `headers` keeps them.
 */
describeEachDatabase("audit log streams: the recorded servers' shapes", (kind) => {
  let svc: TestService;
  let receiver: StreamReceiver;
  beforeAll(async () => {
    svc = await startService({ kind, env: fastDelivery });
    receiver = await startStreamReceiver();
  });
  afterAll(async () => {
    await svc?.close();
    await receiver?.close();
  });

  const recorded = (year: 2024 | 2026, prefix: string) => recording(year, prefix, "more");
  const expectShape = (ours: unknown, prefix: string, year: 2024 | 2026 = 2026) => {
    const theirs = recorded(year, prefix).body;
    const [a, b] = shapesSideBySide(ours, theirs);
    expect(a).toEqual(b);
    expect(shapeOf(ours)).toEqual(shapeOf(theirs));
  };
  /** An error body: the recorded keys (the 2024 server sent no reqId) and its message, where it names nothing of ours. */
  const expectError = (ours: { status: number; body: unknown }, prefix: string, year: 2024 | 2026 = 2026) => {
    const theirs = recorded(year, prefix);
    expect(ours.status).toBe(theirs.status);
    const { reqId: _ours, ...body } = ours.body as Record<string, unknown>;
    const { reqId: _theirs, ...expected } = theirs.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(Object.keys(expected).sort());
    expect(body.error).toBe(expected.error);
  };
  const headers = [{ key: "X-Sample-Header", value: "sample-header-value-1" }];

  it("2026: options, list, create, get, update, delete and their errors", async () => {
    expectShape((await svc.endpoint("auditLogStreams.list")).body, "003-");
    const options = await svc.endpoint("auditLogStreams.options");
    expectShape(options.body, "002-");

    const created = await svc.endpoint("auditLogStreams.create", {
      params: { provider: "custom" },
      body: { credentials: { url: receiver.url, headers } },
    });
    expectShape(created.body, "004-");
    expect(created.body).toMatchObject({ auditLogStream: { streamMode: "batch", filters: null } });
    const streamId = endpoints["auditLogStreams.create"].response.parse(created.body).auditLogStream.id;
    expectShape((await svc.endpoint("auditLogStreams.list")).body, "007-");
    expectShape((await svc.endpoint("auditLogStreams.get", { params: { provider: "custom", streamId } })).body, "008-");

    const unreachable = await svc.endpoint("auditLogStreams.create", {
      params: { provider: "custom" },
      body: { credentials: { url: `${await unusedLoopbackUrl()}/nothing-listens`, headers: [] } },
    });
    expectError(unreachable, "005-");
    const invalid = await svc.endpoint("auditLogStreams.create", {
      params: { provider: "custom" },
      body: recorded(2026, "006-").request.body,
    });
    expectError(invalid, "006-");
    const issues = (invalid.body as { message: { path: (string | number)[]; message: string }[] }).message;
    expect(issues.map((i) => i.path.join("."))).toEqual(
      expect.arrayContaining(["credentials.url", "credentials.headers.0.value"]),
    );
    const wrongProvider = await svc.endpoint("auditLogStreams.get", { params: { provider: "datadog", streamId } });
    expectError(wrongProvider, "009-");
    expect((wrongProvider.body as { message: string }).message).toBe(
      (recorded(2026, "009-").body as { message: string }).message.replace(/'[0-9a-f-]{36}'/, `'${streamId}'`),
    );
    const missing = await svc.endpoint("auditLogStreams.get", {
      params: { provider: "custom", streamId: "85581540-3b3b-4e91-bb51-e246bceaef09" },
    });
    expectError(missing, "010-");
    expect(missing.body).toMatchObject({ message: (recorded(2026, "010-").body as { message: string }).message });

    // The recorded update, sent to this test's receiver.
    const update = recorded(2026, "120-").request.body as { credentials: { url: string } };
    const updated = await svc.endpoint("auditLogStreams.update", {
      params: { provider: "custom", streamId },
      body: { ...update, credentials: { ...update.credentials, url: receiver.url } },
    });
    expectShape(updated.body, "120-");
    expect(updated.body).toMatchObject({ auditLogStream: { filters: { products: ["secret-manager"] } } });
    const toSingle = await svc.endpoint("auditLogStreams.update", {
      params: { provider: "custom", streamId },
      body: recorded(2026, "121-").request.body,
    });
    expectError(toSingle, "121-");
    expect(toSingle.body).toMatchObject({ message: (recorded(2026, "121-").body as { message: string }).message });
    expectShape((await svc.endpoint("auditLogStreams.get", { params: { provider: "custom", streamId } })).body, "122-");

    const deleted = await svc.endpoint("auditLogStreams.delete", { params: { provider: "custom", streamId } });
    expectShape(deleted.body, "126-");
    expectError(await svc.endpoint("auditLogStreams.get", { params: { provider: "custom", streamId } }), "127-");
    expectShape((await svc.endpoint("auditLogStreams.list")).body, "128-");
  });

  it("2026: the receiver gets the recorded ping, then JSON arrays of the recorded flat rows (plus requestId)", async () => {
    const pingsBefore = receiver.pings.length;
    const streamId = await createStream(svc, receiver.url, headers);
    const ping = receiver.pings[pingsBefore];
    const theirPing = recorded(2026, "117-").request as unknown as { body: unknown; headers: Record<string, string> };
    expect(ping?.body).toEqual(theirPing.body);
    expect(ping?.headers["content-type"]).toBe(theirPing.headers["content-type"]);
    expect(ping?.headers["x-sample-header"]).toBe(theirPing.headers["x-sample-header"]);

    const store = storeOf(svc);
    const from = await lastSeq(store);
    await appendEvents(store, 3);
    const expected = await eventIdsAfter(store, from);
    await untilAccepted(receiver, expected);
    const batch = receiver.deliveries.at(-1)?.body;
    expect(Array.isArray(batch)).toBe(true);
    const theirRow = (recorded(2026, "118-").request.body as Record<string, unknown>[])[0] as Record<string, unknown>;
    for (const row of batch as Record<string, unknown>[]) {
      expect(Object.keys(row).sort()).toEqual([...Object.keys(theirRow), "requestId"].sort());
      const { actorMetadata: _a, eventMetadata: _e, requestId: _r, ...flat } = row;
      const { actorMetadata: _ta, eventMetadata: _te, ...theirFlat } = theirRow;
      expect(shapeOf(flat)).toEqual(shapeOf(theirFlat));
    }
    await svc.endpoint("auditLogStreams.delete", { params: { provider: "custom", streamId } });
  });

  it("2024: create, list, get, update, delete, the not-found answer, and one object per event at the receiver", async () => {
    const created = await svc.endpoint("auditLogStreams.createLegacy", { body: { url: receiver.url, headers } });
    expectShape(created.body, "003-", 2024);
    const streamId = endpoints["auditLogStreams.createLegacy"].response.parse(created.body).auditLogStream.id;
    // One list route serves both generations; it answers the mid-2026 record, the 2024 stream included.
    expect((await svc.endpoint("auditLogStreams.list")).body).toMatchObject({
      auditLogStreams: [{ id: streamId, streamMode: "single", credentials: { url: receiver.url } }],
    });
    const got = await svc.endpoint("auditLogStreams.getLegacy", { params: { streamId } });
    expectShape(got.body, "007-", 2024);
    expect(got.body).toMatchObject({ auditLogStream: { headers } });

    const updated = await svc.endpoint("auditLogStreams.updateLegacy", {
      params: { streamId },
      body: { ...(recorded(2024, "103-").request.body as object), url: receiver.url },
    });
    expectShape(updated.body, "103-", 2024);
    expectShape((await svc.endpoint("auditLogStreams.getLegacy", { params: { streamId } })).body, "104-", 2024);

    const store = storeOf(svc);
    const from = await lastSeq(store);
    await appendEvents(store, 2);
    await untilAccepted(receiver, await eventIdsAfter(store, from));
    const single = receiver.deliveries.at(-1);
    const theirs = recorded(2024, "099-").request as unknown as { body: Record<string, unknown> };
    expect(Object.keys(single?.body as object).sort()).toEqual([...Object.keys(theirs.body), "requestId"].sort());
    expect(single?.headers["x-second-header"]).toBe("second-value");

    const deleted = await svc.endpoint("auditLogStreams.deleteLegacy", { params: { streamId } });
    expectShape(deleted.body, "110-", 2024);
    const missing = await svc.endpoint("auditLogStreams.getLegacy", { params: { streamId } });
    expectError(missing, "111-", 2024);
    expect(missing.body).toMatchObject({ message: (recorded(2024, "111-").body as { message: string }).message });
    expectShape((await svc.endpoint("auditLogStreams.list")).body, "112-", 2024);
  });
});
