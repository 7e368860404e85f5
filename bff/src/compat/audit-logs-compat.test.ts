import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { endpoints } from "@keyhold/contract";
import { loadRecordings, recording, sampleDir } from "@keyhold/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayUpstream, startReplayUpstream } from "../replay/replay-upstream.ts";
import { CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { fakeAccessToken, sampleSets } from "../test/samples.ts";

/** A replayed server from chosen recordings of the console's set and of the paid-plan set. */
async function replayOf(line: 2024 | 2026, base: RegExp, more: RegExp, edit?: (dir: string) => void) {
  const dir = mkdtempSync(path.join(tmpdir(), "keyhold-audit-compat-"));
  for (const { file } of loadRecordings(sampleSets[line])) {
    if (base.test(file)) cpSync(path.join(sampleSets[line], file), path.join(dir, file));
  }
  const moreDir = sampleDir(line, "more");
  for (const { file } of loadRecordings(moreDir)) {
    if (more.test(file)) cpSync(path.join(moreDir, file), path.join(dir, `9${file}`));
  }
  edit?.(dir);
  return { dir, replay: await startReplayUpstream(dir) };
}

describe("the org audit log in front of a replayed October 2024 server, as an identity", () => {
  const identityId = (recording(2024, "004-").body as { identity: { identityId: string } }).identity.identityId;
  let dir: string;
  let replay: ReplayUpstream;
  let bff: TestBff;
  let cookie: string;

  beforeAll(async () => {
    ({ dir, replay } = await replayOf(2024, /^(001|004)-/, /^(026|040)-/));
    bff = await startBff(testConfig({ upstreamOrigin: replay.url }));
    ({ cookie } = await logIn(bff, fakeAccessToken(identityId)));
  });
  afterAll(async () => {
    await bff?.close();
    replay?.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const list = (query: string) =>
    bff.send({ method: "GET", path: `/api/v1/organization/audit-logs?${query}`, headers: { ...CSRF, cookie } });

  it("reads a project's events through the project route, which the server answers to identities", async () => {
    replay.requests.length = 0;
    const projectId = "bba1968e-bebe-441c-aca5-6c4fe083cccb";
    const res = await list(`projectId=${projectId}&environment=dev&limit=100`);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const parsed = endpoints["auditLogs.listOrg"].response.parse(res.json);
    expect(parsed.auditLogs.length).toBeGreaterThan(0);
    expect(replay.requests).toEqual([
      "GET /api/v1/organization/audit-logs",
      `GET /api/v1/workspace/${projectId}/audit-logs`,
    ]);
  });

  it("passes the refusal on, named as such, when no project is named", async () => {
    const res = await list("limit=100");
    expect(res.status).toBe(403);
    expect((res.json as { error: string }).error).toBe("UserSessionOnly");
  });
});

describe("a mid-2026 server whose plan keeps no audit logs", () => {
  const identityId = (recording(2026, "004-").body as { identity: { identityId: string } }).identity.identityId;
  let dir: string;
  let replay: ReplayUpstream;
  let bff: TestBff;
  let cookie: string;

  beforeAll(async () => {
    ({ dir, replay } = await replayOf(2026, /^(001|004)-/, /^(001|027)-/, (folder) => {
      // The free plan: the same answers, with audit logs off and nothing stored.
      const edit = (file: string, change: (body: Record<string, unknown>) => void) => {
        const full = path.join(folder, file);
        const json = JSON.parse(readFileSync(full, "utf8")) as { body: Record<string, unknown> };
        change(json.body);
        writeFileSync(full, JSON.stringify(json));
      };
      edit("9001-plan-get-unlocked.json", (body) => {
        (body.plan as Record<string, unknown>).auditLogs = false;
      });
      edit("9027-audit-logs-org-default.json", (body) => {
        body.auditLogs = [];
      });
    }));
    bff = await startBff(testConfig({ upstreamOrigin: replay.url }));
    ({ cookie } = await logIn(bff, fakeAccessToken(identityId)));
  });
  afterAll(async () => {
    await bff?.close();
    replay?.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers the empty list and tells the console the plan keeps none", async () => {
    const res = await bff.send({
      method: "GET",
      path: "/api/v1/organization/audit-logs",
      headers: { ...CSRF, cookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers["keyhold-unavailable-features"]).toBe("auditLogs");
    const session = await bff.send({ method: "GET", path: "/bff/session", headers: { ...CSRF, cookie } });
    const features = (session.json as { server: { features: { name: string; available: boolean; reason?: string }[] } })
      .server.features;
    expect(features.find((f) => f.name === "auditLogs")).toEqual({
      name: "auditLogs",
      available: false,
      reason: "This server's plan does not keep audit logs.",
    });
  });
});
