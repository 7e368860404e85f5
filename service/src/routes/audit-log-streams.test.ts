import { randomUUID } from "node:crypto";
import { endpoints } from "@keyhold/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { STREAM_LIMIT } from "../domain/audit-log-stream-service.ts";
import { createStream, type StreamReceiver, startStreamReceiver } from "../test/audit-streams.ts";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { startLoopbackPeer, unusedLoopbackUrl } from "../test/loopback.ts";

const SECRET_HEADER = "splunk-token-3f9c1e0b7a";

/** Creating, reading, changing and deleting streams on both route generations, and who may. */
describeEachDatabase("audit log streams: the endpoints", (kind) => {
  let svc: TestService;
  let receiver: StreamReceiver;
  beforeAll(async () => {
    svc = await startService({ kind });
    receiver = await startStreamReceiver();
  });
  afterAll(async () => {
    await svc?.close();
    await receiver?.close();
  });
  afterEach(async () => {
    await svc.app.db.deleteFrom("audit_log_streams").execute();
  });

  const streamRow = (id: string) =>
    svc.app.db.selectFrom("audit_log_streams").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("creates after a ping carrying the headers, answers the values masked and keeps them sealed", async () => {
    const pingsBefore = receiver.pings.length;
    const res = await svc.endpoint("auditLogStreams.create", {
      params: { provider: "custom" },
      body: { credentials: { url: receiver.url, headers: [{ key: "Authorization", value: SECRET_HEADER }] } },
    });
    expect(res.status).toBe(200);
    const { auditLogStream } = endpoints["auditLogStreams.create"].response.parse(res.body);
    expect(auditLogStream).toMatchObject({
      orgId: svc.info.orgId,
      provider: "custom",
      streamMode: "batch",
      filters: null,
      credentials: { url: receiver.url, headers: [{ key: "Authorization", value: "******" }] },
    });
    const ping = receiver.pings[pingsBefore];
    expect(ping?.body).toEqual({ ping: "ok" });
    expect(ping?.headers.authorization).toBe(SECRET_HEADER);
    expect(ping?.headers["content-type"]).toBe("application/json");

    const row = await streamRow(auditLogStream.id);
    expect(row.sealed_headers).not.toContain(SECRET_HEADER);
    expect(row.sealed_headers).not.toContain(Buffer.from(SECRET_HEADER).toString("base64").slice(0, 12));
    expect(JSON.stringify(row)).not.toContain(SECRET_HEADER);
    expect(svc.logs()).not.toContain(SECRET_HEADER);

    const listed = await svc.endpoint("auditLogStreams.list");
    expect(JSON.stringify(listed.body)).not.toContain(SECRET_HEADER);
    const got = await svc.endpoint("auditLogStreams.get", {
      params: { provider: "custom", streamId: auditLogStream.id },
    });
    expect(got.body).toEqual(res.body);
  });

  it("refuses a URL that does not answer, or answers an error, with 400 and stores nothing", async () => {
    const nowhere = `${await unusedLoopbackUrl()}/nothing-listens`;
    const refused = await svc.endpoint("auditLogStreams.create", {
      params: { provider: "custom" },
      body: { credentials: { url: nowhere, headers: [] } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: "BadRequest",
      message: expect.stringMatching(/^Failed to connect with upstream source: connect ECONNREFUSED 127\.0\.0\.1:\d+$/),
    });
    const failing = await startLoopbackPeer(() => ({ status: 503, body: { down: true } }));
    try {
      const answered = await svc.endpoint("auditLogStreams.createLegacy", { body: { url: failing.url } });
      expect(answered.status).toBe(400);
      expect(answered.body).toMatchObject({
        message: "Failed to connect with upstream source: The receiver answered 503",
      });
    } finally {
      await failing.close();
    }
    expect(await svc.app.db.selectFrom("audit_log_streams").selectAll().execute()).toEqual([]);
  });

  it("answers the recorded 400 for a provider the stream is not for, 404 for an unknown stream, and refuses other providers", async () => {
    const id = await createStream(svc, receiver.url);
    const wrong = await svc.endpoint("auditLogStreams.get", { params: { provider: "datadog", streamId: id } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: `Audit Log Stream with ID '${id}' is not for provider 'datadog'` });
    const unknown = randomUUID();
    const missing = await svc.endpoint("auditLogStreams.get", { params: { provider: "custom", streamId: unknown } });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      message: `Audit log stream with ID '${unknown}' not found`,
      error: "NotFound",
    });
    const missingLegacy = await svc.endpoint("auditLogStreams.getLegacy", { params: { streamId: unknown } });
    expect(missingLegacy.status).toBe(404);
    expect(missingLegacy.body).toMatchObject({ message: "Audit log stream not found" });
    const splunk = await svc.endpoint("auditLogStreams.create", {
      params: { provider: "splunk" },
      body: { credentials: { url: receiver.url, headers: [] } },
    });
    expect(splunk.status).toBe(400);
    expect(splunk.body).toMatchObject({ message: expect.stringContaining('"custom" provider') });
    const options = await svc.endpoint("auditLogStreams.options");
    expect(options.body).toEqual({ providerOptions: [{ name: "Custom", provider: "custom" }] });
  });

  it("keeps a stored header value sent back masked, pings with it, and refuses batch back to single", async () => {
    const id = await createStream(svc, receiver.url, [{ key: "X-Sample-Header", value: SECRET_HEADER }]);
    const pingsBefore = receiver.pings.length;
    const res = await svc.endpoint("auditLogStreams.update", {
      params: { provider: "custom", streamId: id },
      body: {
        credentials: {
          url: receiver.url,
          headers: [
            { key: "X-Sample-Header", value: "******" },
            { key: "X-Second-Header", value: "second-value" },
          ],
        },
        filters: { products: ["secret-manager"] },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      auditLogStream: {
        filters: { products: ["secret-manager"] },
        credentials: {
          headers: [
            { key: "X-Sample-Header", value: "******" },
            { key: "X-Second-Header", value: "******" },
          ],
        },
      },
    });
    expect(receiver.pings[pingsBefore]?.headers).toMatchObject({
      "x-sample-header": SECRET_HEADER,
      "x-second-header": "second-value",
    });
    const legacy = await svc.endpoint("auditLogStreams.getLegacy", { params: { streamId: id } });
    expect(legacy.body).toMatchObject({
      auditLogStream: {
        headers: [
          { key: "X-Sample-Header", value: SECRET_HEADER },
          { key: "X-Second-Header", value: "second-value" },
        ],
      },
    });

    const single = await svc.endpoint("auditLogStreams.update", {
      params: { provider: "custom", streamId: id },
      body: { credentials: { url: receiver.url, headers: [] }, streamMode: "single" },
    });
    expect(single.status).toBe(400);
    expect(single.body).toMatchObject({
      message: "Audit Log Stream cannot be switched from batch delivery back to single delivery",
    });
    const unknownMasked = await svc.endpoint("auditLogStreams.update", {
      params: { provider: "custom", streamId: id },
      body: { credentials: { url: receiver.url, headers: [{ key: "X-Never-Stored", value: "******" }] } },
    });
    expect(unknownMasked.status).toBe(400);
    const badFilter = await svc.endpoint("auditLogStreams.update", {
      params: { provider: "custom", streamId: id },
      body: { filters: { products: ["cert-manager"] } },
    });
    expect(badFilter.status).toBe(400);
  });

  it("serves the October 2024 routes: headers in clear to the admin, kept when an update leaves them out", async () => {
    const created = await svc.endpoint("auditLogStreams.createLegacy", {
      body: { url: receiver.url, headers: [{ key: "X-Sample-Header", value: "sample-header-value-1" }] },
    });
    expect(created.status).toBe(200);
    const { auditLogStream } = endpoints["auditLogStreams.createLegacy"].response.parse(created.body);
    expect(Object.keys(auditLogStream).sort()).toEqual(["createdAt", "id", "updatedAt", "url"]);
    const streamId = auditLogStream.id;
    const pingsBefore = receiver.pings.length;
    const updated = await svc.endpoint("auditLogStreams.updateLegacy", {
      params: { streamId },
      body: { url: `${receiver.url}?v=2` },
    });
    expect(updated.status).toBe(200);
    expect(receiver.pings[pingsBefore]?.headers["x-sample-header"]).toBe("sample-header-value-1");
    const got = await svc.endpoint("auditLogStreams.getLegacy", { params: { streamId } });
    expect(got.body).toMatchObject({
      auditLogStream: {
        url: `${receiver.url}?v=2`,
        headers: [{ key: "X-Sample-Header", value: "sample-header-value-1" }],
      },
    });
    // The same stream on the mid-2026 routes: one event per POST, switchable to batches.
    const asNew = await svc.endpoint("auditLogStreams.get", { params: { provider: "custom", streamId } });
    expect(asNew.body).toMatchObject({ auditLogStream: { streamMode: "single" } });
    const toBatch = await svc.endpoint("auditLogStreams.update", {
      params: { provider: "custom", streamId },
      body: { streamMode: "batch" },
    });
    expect(toBatch.body).toMatchObject({ auditLogStream: { streamMode: "batch" } });
    const deleted = await svc.endpoint("auditLogStreams.deleteLegacy", { params: { streamId } });
    expect(deleted.status).toBe(200);
    expect((await svc.endpoint("auditLogStreams.getLegacy", { params: { streamId } })).status).toBe(404);
    expect(await svc.endpoint("auditLogStreams.list")).toMatchObject({ body: { auditLogStreams: [] } });
  });

  it(`allows ${STREAM_LIMIT} streams per organisation`, async () => {
    for (let i = 0; i < STREAM_LIMIT; i++) await createStream(svc, receiver.url);
    const pingsBefore = receiver.pings.length;
    const over = await svc.endpoint("auditLogStreams.create", {
      params: { provider: "custom" },
      body: { credentials: { url: receiver.url, headers: [] } },
    });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ message: `An organisation can have at most ${STREAM_LIMIT} audit log streams` });
    expect(receiver.pings.length).toBe(pingsBefore);
  });

  describe("who may", () => {
    it("refuses members and identities without access, and hides other organisations' streams", async () => {
      const id = await createStream(svc, receiver.url, [{ key: "Authorization", value: SECRET_HEADER }]);
      for (const role of ["member", "no-access"]) {
        const { token } = await identityWithToken(svc, { name: `stream-${role}`, role });
        for (const [endpoint, input] of [
          ["auditLogStreams.list", {}],
          ["auditLogStreams.options", {}],
          ["auditLogStreams.status", {}],
          ["auditLogStreams.getLegacy", { params: { streamId: id } }],
          ["auditLogStreams.get", { params: { provider: "custom", streamId: id } }],
          ["auditLogStreams.test", { params: { provider: "custom", streamId: id } }],
          ["auditLogStreams.deleteLegacy", { params: { streamId: id } }],
          ["auditLogStreams.createLegacy", { body: { url: receiver.url } }],
        ] as const) {
          const res = await svc.endpoint(endpoint, input, { token });
          expect(res.status, `${role} ${endpoint}`).toBe(403);
          expect(JSON.stringify(res.body)).not.toContain(SECRET_HEADER);
        }
      }
      // A stream of another organisation is not found.
      const other = randomUUID();
      const now = new Date().toISOString();
      await svc.app.db
        .insertInto("organizations")
        .values({ id: other, name: "Other", slug: `other-${other.slice(0, 8)}`, created_at: now, updated_at: now })
        .execute();
      await svc.app.db.updateTable("audit_log_streams").set({ org_id: other }).where("id", "=", id).execute();
      expect((await svc.endpoint("auditLogStreams.getLegacy", { params: { streamId: id } })).status).toBe(404);
      expect(await svc.endpoint("auditLogStreams.list")).toMatchObject({ body: { auditLogStreams: [] } });
    });
  });
});
