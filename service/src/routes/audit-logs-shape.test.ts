import { type AuditLog, endpoints } from "@keyhold/contract";
import { loadRecordings, type Recording, recording, sampleDir } from "@keyhold/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAuditEvents } from "../test/audit-seed.ts";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject, memberWithRoles } from "../test/project-fixtures.ts";
import { shapeOf } from "../test/shapes.ts";

type Recorded = Recording & { request: { query?: Record<string, string> | null } };
type RecordedLog = AuditLog & { requestId?: never };

const audit2026 = loadRecordings(sampleDir(2026, "more")) as Recorded[];
const isList = (r: Recorded) => /\/audit-logs$/.test(r.path);
const logsOf = (r: Recording) => (r.body as { auditLogs: RecordedLog[] }).auditLogs;
const fileNumber = (r: Recording) => Number(r.file.slice(0, 3));

const recordedOrg = logsOf(recording(2026, "028-", "more"))[0]?.orgId as string;
const recordedProject = "be6e1781-ae68-44db-91ba-e0502705faf3";
/** Recorded lists of this run are replayed with this end: the service's own events of today stay out. */
const REPLAY_END = "2026-11-24T23:30:00.000Z";

/**
 * Every event the recorded lists show, oldest first. Events of the same millisecond keep the
 * order the server listed them in (newest first there).
 */
function recordedEvents(recordings: readonly Recorded[]): RecordedLog[] {
  const byId = new Map<string, { log: RecordedLog; rank: number }>();
  for (const r of recordings.filter((r) => isList(r) && r.status === 200)) {
    logsOf(r).forEach((log, rank) => {
      if (!byId.has(log.id)) byId.set(log.id, { log, rank });
    });
  }
  return [...byId.values()]
    .sort((a, b) => a.log.createdAt.localeCompare(b.log.createdAt) || b.rank - a.rank)
    .map(({ log }) => log);
}

describeEachDatabase("audit log lists: the mid-2026 server's answers, replayed", (kind) => {
  let svc: TestService;
  let projectId: string;
  let projectName: string;
  /** Recorded text with the recorded organisation and project replaced by ours. */
  const ours = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value).split(recordedOrg).join(svc.info.orgId).split(recordedProject).join(projectId));

  const seed = (logs: readonly RecordedLog[]) =>
    seedAuditEvents(
      svc,
      (ours(logs) as RecordedLog[]).map((log) => ({
        id: log.id,
        orgId: log.orgId,
        projectId: log.projectId,
        type: log.event.type,
        metadata: log.event.metadata,
        actorType: log.actor.type,
        actorId: (log.actor.metadata.identityId ?? log.actor.metadata.userId ?? null) as string | null,
        actorMetadata: log.actor.metadata,
        ipAddress: log.ipAddress,
        userAgent: log.userAgent,
        userAgentType: log.userAgentType,
        createdAt: log.createdAt,
      })),
    );

  const replay = (r: Recorded, options: { token?: string | null } = {}) => {
    const query = { ...(r.request.query ?? {}) };
    if (query.startDate && !query.endDate) query.endDate = REPLAY_END;
    const search = new URLSearchParams(ours(query) as Record<string, string>).toString();
    return svc.call(r.method, `${ours(r.path)}${search ? `?${search}` : ""}`, options);
  };

  const expectSameList = (answer: { status: number; body: unknown }, r: Recorded) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const mine = (answer.body as { auditLogs: AuditLog[] }).auditLogs;
    // Keyhold keeps the project's name on its events, as the October 2024 server did (mid-2026: null).
    const theirs = (ours(logsOf(r)) as AuditLog[]).map((log) => ({
      ...log,
      projectName: log.projectId === projectId ? projectName : null,
    }));
    expect(mine.map((log) => log.id)).toEqual(theirs.map((log) => log.id));
    // Field for field the recorded items; Keyhold's request id is the one key they lack.
    expect(mine.map(({ requestId, ...log }) => [requestId, log])).toEqual(theirs.map((log) => [null, log]));
  };

  const all = recordedEvents(audit2026);
  const firstRun = all.filter((log) => log.createdAt <= "2026-11-24T23:19:40.000Z");

  beforeAll(async () => {
    svc = await startService({ kind });
    ({ id: projectId, name: projectName } = await createProject(svc));
    // The recorded server kept entries 30 days.
    const set = await svc.endpoint("organizations.updateAuditLogsRetention", { body: { auditLogsRetentionDays: 30 } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await seed(firstRun);
  });
  afterAll(async () => svc?.close());

  const firstReplays = audit2026.filter(
    (r) => isList(r) && r.status === 200 && fileNumber(r) >= 28 && fileNumber(r) <= 42,
  );
  it.each(firstReplays.map((r) => [r.file, r] as const))("%s", async (_file, r) => {
    expectSameList(await replay(r), r);
  });

  describe("after the later activity (OIDC sign-ins, batches, rollbacks)", () => {
    beforeAll(async () => {
      await seed(all.filter((log) => log.createdAt > "2026-11-24T23:19:40.000Z"));
    });
    const laterReplays = audit2026.filter((r) => isList(r) && r.status === 200 && fileNumber(r) >= 69);
    it.each(laterReplays.map((r) => [r.file, r] as const))("%s", async (_file, r) => {
      expectSameList(await replay(r), r);
    });
  });

  it("027 the default window is today's; every item has the recorded shape plus requestId", async () => {
    const today = new Date();
    today.setUTCHours(0, 0, 0, 0);
    const seeded = {
      orgId: svc.info.orgId,
      projectId,
      type: "create-secret",
      metadata: { environment: "dev", secretPath: "/", secretKey: "TODAY" },
      actorId: svc.info.adminIdentityId,
      ipAddress: "127.0.0.1",
      userAgent: "vitest",
      userAgentType: "other",
    };
    const [inside, outside] = await seedAuditEvents(svc, [
      { ...seeded, createdAt: new Date(today.getTime() - 1).toISOString() },
      { ...seeded, createdAt: today.toISOString() },
    ]).then((ids) => [ids[1], ids[0]]);
    const answer = await svc.endpoint("auditLogs.listOrg", { query: { limit: "1000" } });
    expect(answer.status).toBe(200);
    const ids = (answer.body as { auditLogs: AuditLog[] }).auditLogs.map((log) => log.id);
    expect(ids).toContain(inside);
    expect(ids).not.toContain(outside);
    const recorded = logsOf(recording(2026, "027-", "more"))[0];
    const item = (answer.body as { auditLogs: AuditLog[] }).auditLogs[0];
    expect(Object.keys(item ?? {}).sort()).toEqual([...Object.keys(recorded ?? {}), "requestId"].sort());
    const { requestId: _requestId, event, actor, ...top } = item as AuditLog;
    const { event: recordedEvent, actor: recordedActor, ...recordedTop } = recorded as AuditLog;
    // The project's name is kept (mid-2026 answers null there, October 2024 the name).
    expect(top.projectName).toBe(projectName);
    expect(shapeOf({ ...top, projectName: null })).toEqual(shapeOf(recordedTop));
    expect(Object.keys(event)).toEqual(Object.keys(recordedEvent));
    expect(Object.keys(actor)).toEqual(Object.keys(recordedActor));
  });

  it("045–052: refused queries answer the recorded statuses, messages and issue paths", async () => {
    for (const prefix of ["045-", "046-", "047-", "048-", "049-", "050-", "051-", "052-"]) {
      const r = recording(2026, prefix, "more") as Recorded;
      const answer = await replay(r);
      expect(answer.status, `${r.file}: ${JSON.stringify(answer.body)}`).toBe(r.status);
      const { reqId: _ours, message, ...mine } = answer.body as { reqId: string; message: unknown };
      const { reqId: _theirs, message: recordedMessage, ...theirs } = r.body as { reqId: string; message: unknown };
      expect(mine, r.file).toEqual(theirs);
      if (typeof recordedMessage === "string") {
        expect(message, r.file).toBe(recordedMessage);
        continue;
      }
      // Zod 4 names some issue codes differently from Infisical's zod 3 (invalid_value for
      // invalid_enum_value, invalid_format for invalid_string); where each issue points, and what
      // the custom and bound issues say, are the same.
      const gist = (issues: unknown) =>
        (issues as { path: unknown[]; code: string; message: string; maximum?: number }[]).map((issue) => ({
          path: issue.path,
          ...(issue.code === "custom" && { message: issue.message }),
          ...(issue.maximum !== undefined && { maximum: issue.maximum }),
        }));
      expect(gist(message), r.file).toEqual(gist(recordedMessage));
    }
  });

  it("053 an org member identity reads the org list; 055 a no-access identity is refused as recorded", async () => {
    const member = await identityWithToken(svc, { name: "audit-member", role: "member" });
    const listed = await replay(recording(2026, "053-", "more") as Recorded, { token: member.token });
    expect(listed.status).toBe(200);
    const outsider = await identityWithToken(svc, { name: "audit-no-access", role: "no-access" });
    const refused = await replay(recording(2026, "055-", "more") as Recorded, { token: outsider.token });
    const { reqId: _ours, ...mine } = refused.body as Record<string, unknown>;
    const { reqId: _theirs, ...theirs } = recording(2026, "055-", "more").body as Record<string, unknown>;
    expect([refused.status, mine]).toEqual([403, theirs]);
  });

  it("054 a project viewer reads the project's events; 056 a non-member is refused; 057 no token", async () => {
    const viewer = await memberWithRoles(svc, projectId, ["viewer"], "audit-viewer");
    const listed = await replay(recording(2026, "054-", "more") as Recorded, { token: viewer.token });
    expect(listed.status).toBe(200);
    const outsider = await identityWithToken(svc, { name: "audit-outsider", role: "member" });
    const r = recording(2026, "056-", "more") as Recorded;
    const refused = await replay(r, { token: outsider.token });
    const { reqId: _ours, ...mine } = refused.body as Record<string, unknown>;
    const { reqId: _theirs, ...theirs } = ours(r.body) as Record<string, unknown>;
    expect([refused.status, mine]).toEqual([403, theirs]);
    // Keyhold's 401 says how to authenticate; status and error name are the recorded ones.
    const anonymous = await replay(recording(2026, "057-", "more") as Recorded, { token: null });
    expect([anonymous.status, (anonymous.body as { error: string }).error]).toEqual([401, "UnauthorizedError"]);
  });

  it("058 the project retention answer has the recorded shape", async () => {
    const r = recording(2026, "058-", "more") as Recorded;
    const answer = await svc.call(r.method, ours(r.path) as string, { body: r.request.body });
    expect(answer.status).toBe(200);
    expect(shapeOf(answer.body)).toEqual(shapeOf(r.body));
    expect((answer.body as { project: { auditLogsRetentionDays: number } }).project.auditLogsRetentionDays).toBe(7);
    expect((answer.body as { message: string }).message).toBe((r.body as { message: string }).message);
  });

  it("items are exactly what the response schema answers (nothing dropped on the way out)", async () => {
    const answer = await svc.endpoint("auditLogs.listOrg", { query: { startDate: firstRun[0]?.createdAt ?? "" } });
    const body = answer.body as { auditLogs: AuditLog[] };
    expect(endpoints["auditLogs.listOrg"].response.parse(body)).toEqual(body);
  });
});

describeEachDatabase("audit log lists: the October 2024 server's project route", (kind) => {
  let svc: TestService;
  let projectId: string;
  const audit2024 = loadRecordings(sampleDir(2024, "more")) as Recorded[];
  const recorded = recording(2024, "040-", "more") as Recorded;
  const recordedProject2024 = "bba1968e-bebe-441c-aca5-6c4fe083cccb";

  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = (await createProject(svc)).id;
  });
  afterAll(async () => svc?.close());

  it("040, 041, 054 answer the recorded item shape and, on the legacy slug path, the recorded envelope", async () => {
    const logs = recordedEvents(audit2024.filter((r) => fileNumber(r) === 40));
    await seedAuditEvents(
      svc,
      logs.map((log) => ({
        id: log.id,
        orgId: svc.info.orgId,
        projectId,
        type: log.event.type,
        metadata: log.event.metadata,
        actorType: log.actor.type,
        actorMetadata: log.actor.metadata,
        ipAddress: log.ipAddress,
        userAgent: log.userAgent,
        userAgentType: log.userAgentType,
        createdAt: log.createdAt,
      })),
    );
    for (const prefix of ["040-", "041-"]) {
      const r = recording(2024, prefix, "more") as Recorded;
      const query = new URLSearchParams({ ...(r.request.query ?? {}), endDate: REPLAY_END }).toString();
      const answer = await svc.call("GET", `${r.path.split(recordedProject2024).join(projectId)}?${query}`);
      expect(answer.status).toBe(200);
      const mine = (answer.body as { auditLogs: AuditLog[] }).auditLogs;
      expect(
        mine.map((log) => log.id),
        r.file,
      ).toEqual(logsOf(r).map((log) => log.id));
      const { requestId: _requestId, ...item } = mine[0] as AuditLog;
      expect(shapeOf({ ...item, projectId: "" }), r.file).toEqual(shapeOf({ ...logsOf(recorded)[0], projectId: "" }));
    }
    const legacy = recording(2024, "054-", "more") as Recorded;
    const slug = (await svc.endpoint("projects.get", { params: { workspaceId: projectId } })).body as {
      workspace: { slug: string };
    };
    const answer = await svc.call("PUT", `/api/v1/workspace/${slug.workspace.slug}/audit-logs-retention`, {
      body: legacy.request.body,
    });
    expect(answer.status).toBe(200);
    // The mid-2026 project record, a superset of the 2024 one, under the 2024 envelope key.
    const { workspace, ...envelope } = answer.body as { workspace: Record<string, unknown> };
    const { workspace: recordedWorkspace, ...recordedEnvelope } = legacy.body as { workspace: Record<string, unknown> };
    expect(envelope).toEqual(recordedEnvelope);
    for (const key of Object.keys(recordedWorkspace)) expect(workspace, key).toHaveProperty(key);
    expect(workspace.auditLogsRetentionDays).toBe(7);
  });
});
