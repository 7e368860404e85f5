import { recording } from "@keyhold/fixtures";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { JSON_CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordedRequest, type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";
import { fakeAccessToken, membership } from "../test/samples.ts";

/**
 * Batch updates on an October 2024 server, which ignores `mode: "upsert"` (a missing key fails the
 * whole batch with 404, nothing applied; seen on a live server, and like recording 075) and
 * refuses an item without `secretValue` (recording 069). The stand-in holds one folder and answers
 * as that server does, its records shaped as recorded (067 for batch answers, 070 for the list).
 */
type Item = { secretKey: string; newSecretName?: string; secretValue?: string; secretComment?: string };
const created = recording(2024, "067-", "more").body as { secrets: Record<string, unknown>[] };
const listed = recording(2024, "070-", "more").body as { secrets: Record<string, unknown>[] };
const withoutValue = recording(2024, "069-", "more");
const template = created.secrets[0] as Record<string, unknown>;
const listTemplate = listed.secrets[0] as Record<string, unknown>;
const where = { workspaceId: "proj-sample", environment: "dev", secretPath: "/" };

describe("batch updates on a server without upsert that requires every value", () => {
  let folder = new Map<string, { value: string; comment: string }>();
  let upstream: RecordingUpstream;
  let bff: TestBff;
  let cookie: string;

  const record = (key: string) => ({
    ...template,
    secretKey: key,
    secretValue: folder.get(key)?.value,
    secretComment: folder.get(key)?.comment,
  });
  const answer = (request: RecordedRequest) => {
    if (request.url.startsWith("/api/v1/identities/")) return { status: 200, body: { identity: membership() } };
    if (request.method === "GET" && request.url.startsWith("/api/v3/secrets/raw?")) {
      const values = new URL(request.url, "http://x").searchParams.get("viewSecretValue") !== "false";
      const secrets = [...folder].map(([key, { value, comment }]) => ({
        ...listTemplate,
        secretKey: key,
        secretValue: values ? value : "<hidden-by-infisical>",
        secretComment: comment,
      }));
      return { status: 200, body: { secrets, imports: [] } };
    }
    if (!request.url.startsWith("/api/v3/secrets/batch/raw")) {
      return { status: 404, body: { statusCode: 404, message: `Route ${request.method}:${request.url} not found` } };
    }
    const items = (JSON.parse(request.body) as { secrets: Item[] }).secrets;
    if (request.method === "POST") {
      const taken = items.find((item) => folder.has(item.secretKey));
      if (taken) return { status: 400, body: { statusCode: 400, message: `Secret already exist: ${taken.secretKey}` } };
      for (const item of items) folder.set(item.secretKey, { value: item.secretValue ?? "", comment: "" });
      return { status: 200, body: { secrets: items.map((item) => record(item.secretKey)) } };
    }
    if (request.method === "DELETE") {
      for (const item of items) folder.delete(item.secretKey);
      return { status: 200, body: { secrets: items.map((item) => ({ ...template, secretKey: item.secretKey })) } };
    }
    if (items.some((item) => item.secretValue === undefined)) {
      return { status: withoutValue.status, body: withoutValue.body };
    }
    if (items.some((item) => !folder.has(item.secretKey))) {
      // The mode is not read; like recording 075, the message names the first key, found or not.
      const first = items[0]?.secretKey;
      return { status: 404, body: { statusCode: 404, message: `Secret does not exist: ${first}`, error: "NotFound" } };
    }
    if (items.some((item) => item.secretKey === "LOCKED")) {
      return { status: 403, body: { statusCode: 403, message: "You are not allowed", error: "PermissionDenied" } };
    }
    for (const item of items) {
      const current = folder.get(item.secretKey) as { value: string; comment: string };
      folder.delete(item.secretKey);
      folder.set(item.newSecretName ?? item.secretKey, {
        value: item.secretValue ?? current.value,
        comment: item.secretComment ?? current.comment,
      });
    }
    return { status: 200, body: { secrets: items.map((item) => record(item.newSecretName ?? item.secretKey)) } };
  };

  const update = (body: Record<string, unknown>) =>
    bff.send({
      method: "PATCH",
      path: "/api/v3/secrets/batch/raw",
      headers: { ...JSON_CSRF, cookie },
      body: JSON.stringify({ ...where, ...body }),
    });
  const sent = () =>
    upstream.requests
      .filter((r) => r.url.startsWith("/api/v3/secrets/"))
      .map((r) => {
        if (r.method === "GET") return `GET ${r.url.includes("viewSecretValue=true") ? "values" : "keys"}`;
        const body = JSON.parse(r.body) as { mode?: string; secrets: Item[] };
        return `${r.method}${body.mode === "upsert" ? " upsert" : ""} ${body.secrets.map((s) => s.secretKey).join(",")}`;
      });
  const state = () => Object.fromEntries([...folder].map(([key, { value }]) => [key, value]));

  beforeAll(async () => {
    upstream = await startRecordingUpstream(answer);
    bff = await startBff(testConfig({ upstreamOrigin: upstream.origin }));
    ({ cookie } = await logIn(bff, fakeAccessToken()));
  });
  afterAll(async () => {
    await bff?.close();
    await upstream?.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
    folder = new Map([
      ["KEPT", { value: "old", comment: "kept" }],
      ["LOCKED", { value: "locked", comment: "" }],
      ["NOTE", { value: "noted", comment: "" }],
    ]);
  });

  it("creates an upsert's missing keys and updates the others, in the items' order", async () => {
    const res = await update({
      mode: "upsert",
      secrets: [
        { secretKey: "ADDED", secretValue: "new" },
        { secretKey: "KEPT", secretValue: "changed" },
      ],
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect((res.json as { secrets: { secretKey: string }[] }).secrets.map((s) => s.secretKey)).toEqual([
      "ADDED",
      "KEPT",
    ]);
    // The refused upsert changed nothing; then the folder's keys, one create, one update.
    expect(sent()).toEqual(["PATCH upsert ADDED,KEPT", "GET keys", "POST ADDED", "PATCH KEPT"]);
    expect(state()).toEqual({ KEPT: "changed", LOCKED: "locked", NOTE: "noted", ADDED: "new" });
  });

  it("splits from the start on that upstream from then on", async () => {
    const res = await update({ mode: "upsert", secrets: [{ secretKey: "OTHER", secretValue: "1" }] });
    expect(res.status).toBe(200);
    expect(sent()).toEqual(["GET keys", "POST OTHER"]);
    expect(state()).toEqual({ KEPT: "old", LOCKED: "locked", NOTE: "noted", OTHER: "1" });
  });

  it("deletes the keys it created when the update is refused, and answers the refusal", async () => {
    const res = await update({
      mode: "upsert",
      secrets: [
        { secretKey: "ADDED", secretValue: "new" },
        { secretKey: "LOCKED", secretValue: "changed" },
      ],
    });
    expect(res.status).toBe(403);
    expect(sent()).toEqual(["GET keys", "POST ADDED", "PATCH LOCKED", "DELETE ADDED"]);
    expect(state()).toEqual({ KEPT: "old", LOCKED: "locked", NOTE: "noted" });
  });

  it("sends an upsert of existing keys only as one update", async () => {
    const res = await update({ mode: "upsert", secrets: [{ secretKey: "KEPT", secretValue: "v2" }] });
    expect(res.status).toBe(200);
    expect(sent()).toEqual(["GET keys", "PATCH KEPT"]);
  });

  it("completes a rename without a value from one read of the folder's values", async () => {
    const res = await update({
      secrets: [
        { secretKey: "KEPT", newSecretName: "RENAMED" },
        { secretKey: "NOTE", secretComment: "comment only" },
      ],
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(sent()).toEqual(["PATCH KEPT,NOTE", "GET values", "PATCH KEPT,NOTE"]);
    const completed = JSON.parse(upstream.requests.at(-1)?.body ?? "{}") as { secrets: Item[] };
    expect(completed.secrets).toEqual([
      { secretKey: "KEPT", newSecretName: "RENAMED", secretValue: "old", type: "shared" },
      { secretKey: "NOTE", secretComment: "comment only", secretValue: "noted", type: "shared" },
    ]);
    expect(state()).toEqual({ LOCKED: "locked", RENAMED: "old", NOTE: "noted" });
    // From then on, the values are read first.
    upstream.requests.length = 0;
    expect((await update({ secrets: [{ secretKey: "RENAMED", newSecretName: "AGAIN" }] })).status).toBe(200);
    expect(sent()).toEqual(["GET values", "PATCH RENAMED"]);
  });

  it("does not guess a value it cannot read: the server's refusal stands", async () => {
    const res = await update({ secrets: [{ secretKey: "GONE", newSecretName: "X" }] });
    expect(res.status).toBe(422);
    expect(sent()).toEqual(["GET values", "PATCH GONE"]);
  });
});

describe("an upsert on a server that knows the mode (mid-2026, recorded: 073)", () => {
  it("is sent once, as the console made it", async () => {
    const upstream = await startRecordingUpstream((request) =>
      request.url.startsWith("/api/v1/identities/")
        ? { status: 200, body: { identity: membership() } }
        : { status: 200, body: recording(2026, "073-", "more").body },
    );
    const bff = await startBff(testConfig({ upstreamOrigin: upstream.origin }));
    try {
      const { cookie } = await logIn(bff, fakeAccessToken());
      const res = await bff.send({
        method: "PATCH",
        path: "/api/v3/secrets/batch/raw",
        headers: { ...JSON_CSRF, cookie },
        body: JSON.stringify({ ...where, mode: "upsert", secrets: [{ secretKey: "BATCH_NEW", secretValue: "v" }] }),
      });
      expect(res.status).toBe(200);
      expect(upstream.requests.filter((r) => r.url.startsWith("/api/v3/secrets/")).map((r) => r.method)).toEqual([
        "PATCH",
      ]);
    } finally {
      await bff.close();
      await upstream.close();
    }
  });
});
