import { buildPath, endpoints } from "@keyhold/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject } from "../test/project-fixtures.ts";
import { createSecret, type Place } from "../test/secret-fixtures.ts";

/**
 * The audit hook through the real HTTP layer: the event a call declares is committed with its
 * change before the answer leaves, reads of a value included, with the caller, the request id,
 * the address and the user agent, and never the value; when the event cannot be written, the
 * change is not kept either.
 */
describeEachDatabase("audit events written by the route hook", (kind) => {
  let svc: TestService;
  let place: Place;
  beforeAll(async () => {
    svc = await startService({ kind });
    const project = await createProject(svc, { projectName: "Audited" });
    place = { workspaceId: project.id, environment: "dev", secretPath: "/" };
  });
  afterAll(() => svc?.close());

  const eventsOf = (type: string) =>
    svc.app.db.selectFrom("audit_events").selectAll().where("event_type", "=", type).orderBy("org_seq").execute();

  /** Calls over real HTTP headers the way a client does, answering the status, body and request id. */
  async function send(method: string, url: string, body?: unknown, userAgent = "InfisicalNodeSDK/5.0.2") {
    const res = await svc.app.inject({
      method: method as "GET",
      url,
      headers: { authorization: `Bearer ${svc.adminToken}`, "user-agent": userAgent },
      ...(body !== undefined && { payload: body as object }),
    });
    return { status: res.statusCode, body: res.json() as unknown, requestId: String(res.headers["x-request-id"]) };
  }

  it("records a read of a value, committed before the answer, with who, from where and which request", async () => {
    await createSecret(svc, place, "READ_ME", { secretValue: "the-read-value-7a1" });
    const query = new URLSearchParams({ workspaceId: place.workspaceId, environment: "dev" });
    const read = await send("GET", `${buildPath(endpoints["secrets.get"].path, { secretName: "READ_ME" })}?${query}`);
    expect(read.status).toBe(200);
    // The answer has arrived: its event is already committed (read here on the pool's connection).
    const [event] = (await eventsOf("get-secret")).filter((e) => e.request_id === read.requestId);
    expect(event).toMatchObject({
      org_id: svc.info.orgId,
      project_id: place.workspaceId,
      project_name: "Audited",
      actor_type: "identity",
      actor_id: svc.info.adminIdentityId,
      ip_address: "127.0.0.1",
      user_agent: "InfisicalNodeSDK/5.0.2",
      user_agent_type: "InfisicalNodeSDK",
      environment: "dev",
      secret_path: "/",
      secret_key: "READ_ME",
      pruned: 0,
    });
    expect(JSON.parse(event?.actor_metadata ?? "{}")).toEqual({
      name: "admin",
      authMethod: "token-auth",
      identityId: svc.info.adminIdentityId,
      permission: { metadata: {} },
    });
    const secret = endpoints["secrets.get"].response.parse(read.body).secret;
    expect(JSON.parse(event?.event_metadata ?? "{}")).toMatchObject({
      secretId: secret.id,
      secretKey: "READ_ME",
      secretVersion: secret.version,
    });
    expect(JSON.stringify(event)).not.toContain("the-read-value-7a1");
  });

  it("records a change with the version it made, one event per acknowledged change", async () => {
    await createSecret(svc, place, "CHANGE_ME", { secretValue: "first-value-93c" });
    const url = buildPath(endpoints["secrets.update"].path, { secretName: "CHANGE_ME" });
    const updated = await send("PATCH", url, { ...place, secretValue: "second-value-93c" }, "Mozilla/5.0 (X11)");
    expect(updated.status).toBe(200);
    const events = (await eventsOf("update-secret")).filter((e) => e.secret_key === "CHANGE_ME");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ request_id: updated.requestId, user_agent_type: "web" });
    expect(JSON.parse(events[0]?.event_metadata ?? "{}")).toMatchObject({ secretVersion: 2 });
    const stored = JSON.stringify(await svc.app.db.selectFrom("audit_events").selectAll().execute());
    expect(stored).not.toContain("first-value-93c");
    expect(stored).not.toContain("second-value-93c");
    expect(stored).not.toContain(svc.adminToken);
  });

  it("records nothing for a change refused before it was made", async () => {
    const before = (await eventsOf("create-secret")).length;
    const url = buildPath(endpoints["secrets.create"].path, { secretName: "CHANGE_ME" });
    const refused = await send("POST", url, { ...place, secretValue: "dup" });
    expect(refused.status).toBe(400);
    expect(await eventsOf("create-secret")).toHaveLength(before);
  });

  it("keeps no change whose event cannot be written, and answers 500", async () => {
    const url = buildPath(endpoints["secrets.update"].path, { secretName: "CHANGE_ME" });
    const events = await svc.app.db.selectFrom("audit_events").select("id").execute();
    await sql`ALTER TABLE audit_events RENAME TO audit_events_away`.execute(svc.app.db);
    try {
      const failed = await send("PATCH", url, { ...place, secretValue: "never-kept" });
      expect(failed.status).toBe(500);
    } finally {
      await sql`ALTER TABLE audit_events_away RENAME TO audit_events`.execute(svc.app.db);
    }
    const query = new URLSearchParams({ workspaceId: place.workspaceId, environment: "dev" });
    const read = await send("GET", `${buildPath(endpoints["secrets.get"].path, { secretName: "CHANGE_ME" })}?${query}`);
    expect(endpoints["secrets.get"].response.parse(read.body).secret).toMatchObject({
      secretValue: "second-value-93c",
      version: 2,
    });
    // The read was recorded; the failed change was not.
    expect(await svc.app.db.selectFrom("audit_events").select("id").execute()).toHaveLength(events.length + 1);
  });

  it("numbers the organisation's events one after another, even when written side by side", async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, n) => createSecret(svc, place, `SIDE_BY_SIDE_${n}`, { secretValue: `v${n}` })),
    );
    const rows = await svc.app.db
      .selectFrom("audit_events")
      .select("org_seq")
      .where("org_id", "=", svc.info.orgId)
      .orderBy("org_seq")
      .execute();
    expect(rows.map((r) => Number(r.org_seq))).toEqual(rows.map((_, i) => i + 1));
    const head = await svc.app.db
      .selectFrom("audit_chain_heads")
      .selectAll()
      .where("org_id", "=", svc.info.orgId)
      .executeTakeFirstOrThrow();
    expect(Number(head.last_seq)).toBe(rows.length);
  });
});
