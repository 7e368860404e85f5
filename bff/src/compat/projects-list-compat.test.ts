import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { endpoints } from "@keyhold/contract";
import { loadRecordings, recording } from "@keyhold/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayUpstream, startReplayUpstream } from "../replay/replay-upstream.ts";
import { CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { fakeAccessToken, sampleSets } from "../test/samples.ts";

/**
 * An October 2024 server refuses GET /api/v1/workspace to an identity (recorded: 049) and lists
 * the organisation's projects to it at /api/v2/organizations/{orgId}/workspaces (051); the BFF
 * lists projects from there, reading each one whole (052). The replay holds just those answers,
 * as the server gives them to an identity (the user-session list, 050, is left out).
 */
describe("the projects list through the BFF in front of a replayed October 2024 server, as an identity", () => {
  const identityId = (recording(2024, "004-").body as { identity: { identityId: string } }).identity.identityId;
  const listed = (recording(2024, "051-").body as { workspaces: { id: string }[] }).workspaces;
  const read = (recording(2024, "052-").body as { workspace: { id: string; name: string } }).workspace;
  let dir: string;
  let replay: ReplayUpstream;
  let bff: TestBff;
  let cookie: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "keyhold-projects-list-"));
    for (const { file } of loadRecordings(sampleSets[2024])) {
      if (/^(001|004|049|051|052)-/.test(file)) cpSync(path.join(sampleSets[2024], file), path.join(dir, file));
    }
    replay = await startReplayUpstream(dir);
    bff = await startBff(testConfig({ upstreamOrigin: replay.url }));
    ({ cookie } = await logIn(bff, fakeAccessToken(identityId)));
  });
  afterAll(async () => {
    await bff?.close();
    replay?.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const list = () => bff.send({ method: "GET", path: "/api/v1/workspace", headers: { ...CSRF, cookie } });

  it("lists every project of the organisation, each read whole, in the contract's shape", async () => {
    replay.requests.length = 0;
    const res = await list();
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const parsed = endpoints["projects.list"].response.parse(res.json);
    // The replay answers every project read with the one recorded project.
    expect(parsed.workspaces.map((w) => w.name)).toEqual(listed.map(() => read.name));
    expect(replay.requests.slice(0, 2)).toEqual([
      "GET /api/v1/workspace",
      expect.stringMatching(/^GET \/api\/v2\/organizations\/[0-9a-f-]{36}\/workspaces$/),
    ]);
    expect(replay.requests.filter((r) => /^GET \/api\/v1\/workspace\/[0-9a-f-]{36}$/.test(r))).toHaveLength(
      listed.length,
    );
  });

  it("goes straight to the organisation's list once the server has refused the identity", async () => {
    replay.requests.length = 0;
    const res = await list();
    expect(res.status).toBe(200);
    expect(replay.requests[0]).toMatch(/^GET \/api\/v2\/organizations\/[0-9a-f-]{36}\/workspaces$/);
    expect(replay.requests).not.toContain("GET /api/v1/workspace");
  });
});
