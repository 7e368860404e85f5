import { randomUUID } from "node:crypto";
import type { AuditLog } from "@keyhold/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type SeedEvent, seedAuditEvents } from "../test/audit-seed.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject } from "../test/project-fixtures.ts";

const DAY = 86_400_000;
const T0 = Date.parse("2026-10-01T12:00:00.000Z");
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const WINDOW = { startDate: at(0), endDate: at(60) };

/**
 * The filters of the list routes on seeded events: each one narrows to exactly the matching
 * events, pages are newest first and stable, tombstones and other organisations never show, and
 * `expiresAt` follows the retention in force.
 */
describeEachDatabase("audit log lists: filters, pages and retention on the wire", (kind) => {
  let svc: TestService;
  let projectId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = (await createProject(svc)).id;
    const orgId = svc.info.orgId;
    const otherOrg = randomUUID();
    const now = new Date().toISOString();
    await svc.app.db
      .insertInto("organizations")
      .values({ id: otherOrg, name: "Other", slug: `other-${otherOrg.slice(0, 8)}`, created_at: now, updated_at: now })
      .execute();
    const secret = (key: string, environment = "dev", secretPath = "/") => ({
      environment,
      secretPath,
      secretKey: key,
    });
    const events: [string, SeedEvent][] = [
      ["boundaryStart", { orgId, projectId, type: "create-secret", metadata: secret("A"), createdAt: at(0) }],
      [
        "prodRead",
        {
          orgId,
          projectId,
          type: "get-secrets",
          metadata: { environment: "prod", secretPath: "/", numberOfSecrets: 3 },
          createdAt: at(1),
        },
      ],
      [
        "appUpdate",
        {
          orgId,
          projectId,
          type: "update-secret",
          metadata: secret("A", "dev", "/app"),
          createdAt: at(2),
          actorId: "identity-1",
        },
      ],
      [
        "cliRead",
        {
          orgId,
          projectId,
          type: "get-secret",
          metadata: secret("B"),
          createdAt: at(3),
          userAgentType: "cli",
          actorId: "identity-2",
        },
      ],
      [
        "orgEvent",
        {
          orgId,
          type: "create-identity",
          metadata: { identityId: "identity-9", name: "ci" },
          createdAt: at(4),
          actorId: "identity-1",
        },
      ],
      ["platform", { orgId, type: "integration-synced", actorType: "platform", createdAt: at(5) }],
      ["tombstone", { orgId, projectId, type: "create-secret", metadata: secret("A"), createdAt: at(6), pruned: true }],
      ["otherOrg", { orgId: otherOrg, type: "create-secret", metadata: secret("A"), createdAt: at(7) }],
      ["tieFirst", { orgId, projectId, type: "delete-secret", metadata: secret("C"), createdAt: at(8) }],
      ["tieSecond", { orgId, projectId, type: "create-secret", metadata: secret("C"), createdAt: at(8) }],
      [
        "boundaryEnd",
        {
          orgId,
          projectId,
          type: "create-folder",
          metadata: { environment: "dev", folderPath: "/" },
          createdAt: at(60),
        },
      ],
      ["afterWindow", { orgId, projectId, type: "create-secret", metadata: secret("A"), createdAt: at(61) }],
    ];
    const seeded = await seedAuditEvents(
      svc,
      events.map(([, event]) => event),
    );
    events.forEach(([name], i) => {
      ids[name] = seeded[i] as string;
    });
  });
  afterAll(async () => svc?.close());

  const list = async (query: Record<string, string>) => {
    const answer = await svc.endpoint("auditLogs.listOrg", { query: { ...WINDOW, ...query } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return (answer.body as { auditLogs: AuditLog[] }).auditLogs;
  };
  const names = (logs: AuditLog[]) => logs.map((log) => Object.keys(ids).find((name) => ids[name] === log.id));

  it("lists the window's events newest first, both bounds included; tombstones and other orgs never", async () => {
    expect(names(await list({}))).toEqual([
      "boundaryEnd",
      "tieSecond",
      "tieFirst",
      "platform",
      "orgEvent",
      "cliRead",
      "appUpdate",
      "prodRead",
      "boundaryStart",
    ]);
  });

  it.each([
    [
      { projectId: "PROJECT" },
      ["boundaryEnd", "tieSecond", "tieFirst", "cliRead", "appUpdate", "prodRead", "boundaryStart"],
    ],
    [{ projectId: "PROJECT", environment: "prod" }, ["prodRead"]],
    [{ projectId: "PROJECT", secretPath: "/app" }, ["appUpdate"]],
    [{ projectId: "PROJECT", secretKey: "A" }, ["appUpdate", "boundaryStart"]],
    [{ projectId: "PROJECT", secretPath: "/", secretKey: "A" }, ["boundaryStart"]],
    [{ actorType: "platform" }, ["platform"]],
    [{ actor: "identity-1" }, ["orgEvent", "appUpdate"]],
    [{ actorType: "identity", actor: "identity-2" }, ["cliRead"]],
    [{ eventType: "create-secret,delete-secret" }, ["tieSecond", "tieFirst", "boundaryStart"]],
    [{ userAgentType: "cli" }, ["cliRead"]],
    [{ eventMetadata: "numberOfSecrets=3" }, ["prodRead"]],
    [{ eventMetadata: "secretKey=A,secretPath=/app" }, ["appUpdate"]],
    [{ eventMetadata: "identityId=identity-9" }, ["orgEvent"]],
    [{ eventMetadata: 'secretKey="A"' }, []],
  ])("%j narrows to exactly %j", async (query, expected) => {
    const resolved = Object.fromEntries(
      Object.entries(query).map(([key, value]) => [key, value === "PROJECT" ? projectId : value]),
    );
    expect(names(await list(resolved))).toEqual(expected);
  });

  it("pages with offset and limit walk the same order without gaps or repeats", async () => {
    const all = names(await list({}));
    const pages = [];
    for (let offset = 0; offset < all.length; offset += 2) {
      pages.push(...names(await list({ offset: String(offset), limit: "2" })));
    }
    expect(pages).toEqual(all);
    expect(await list({ offset: String(all.length) })).toEqual([]);
  });

  it("without startDate the window starts at 00:00 UTC today, so an endDate before today lists nothing", async () => {
    const answer = await svc.endpoint("auditLogs.listOrg", { query: { endDate: at(60) } });
    expect([answer.status, (answer.body as { auditLogs: AuditLog[] }).auditLogs]).toEqual([200, []]);
  });

  it("refuses an actor id for actor types without ids (400), and folder filters without projectId (422)", async () => {
    const platform = await svc.endpoint("auditLogs.listOrg", { query: { actorType: "platform", actor: "x" } });
    expect([platform.status, (platform.body as { message: string }).message]).toEqual([
      400,
      "Actor type 'platform' does not support filtering by actor ID",
    ]);
    for (const field of ["environment", "secretPath", "secretKey"]) {
      const answer = await svc.endpoint("auditLogs.listOrg", { query: { [field]: "x" } });
      expect(answer.status).toBe(422);
      expect((answer.body as { message: { path: string[] }[] }).message[0]?.path).toEqual([field]);
    }
    const project = await svc.endpoint("auditLogs.listProject", {
      params: { workspaceId: projectId },
      query: { ...WINDOW, environment: "prod" },
    });
    expect((project.body as { auditLogs: AuditLog[] }).auditLogs.map((log) => log.id)).toEqual([ids.prodRead]);
  });

  it("expiresAt is createdAt plus the retention in force: the project's, else the organisation's", async () => {
    const expiry = async (name: string) => {
      const log = (await list({})).find((l) => l.id === ids[name]) as AuditLog;
      return (Date.parse(log.expiresAt) - Date.parse(log.createdAt)) / DAY;
    };
    expect([await expiry("prodRead"), await expiry("orgEvent")]).toEqual([90, 90]);
    await svc.endpoint("organizations.updateAuditLogsRetention", { body: { auditLogsRetentionDays: 30 } });
    await svc.endpoint("projects.updateAuditLogsRetention", {
      params: { projectId },
      body: { auditLogsRetentionDays: 7 },
    });
    expect([await expiry("prodRead"), await expiry("orgEvent")]).toEqual([7, 30]);
  });

  it("requestId names the request that produced the event", async () => {
    const [id] = await seedAuditEvents(svc, [
      { orgId: svc.info.orgId, type: "create-identity", requestId: "req-abc", createdAt: at(30) },
    ]);
    const log = (await list({})).find((l) => l.id === id);
    expect(log?.requestId).toBe("req-abc");
  });
});
