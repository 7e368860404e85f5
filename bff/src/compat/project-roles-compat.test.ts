import { endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRecordings } from "@keyhold/fixtures";
import { findRecording, type ReplayUpstream, startReplayUpstream } from "../replay/replay-upstream.ts";
import { CSRF, JSON_CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { fakeAccessToken, sampleSets } from "../test/samples.ts";

/** The recorded project (047) and identity (004) of a sample set. */
function recorded(dir: string) {
  const body = (prefix: string) => loadRecordings(dir).find((r) => r.file.startsWith(prefix))?.body;
  return {
    projectId: (body("047-") as { project: { id: string } }).project.id,
    identityId: (body("004-") as { identity: { identityId: string } }).identity.identityId,
  };
}

/**
 * The project-role reads and writes of the console work against both recorded servers: on the
 * contract's v2 paths by project id where the server has them, else on the v1 paths by slug.
 */
describe.each([
  ["October 2024", sampleSets[2024]],
  ["mid-2026", sampleSets[2026]],
] as const)("project roles through the BFF in front of a replayed %s server", (_version, dir) => {
  const { projectId, identityId } = recorded(dir);
  let replay: ReplayUpstream;
  let bff: TestBff;
  let cookie: string;

  beforeAll(async () => {
    replay = await startReplayUpstream(dir);
    bff = await startBff(testConfig({ upstreamOrigin: replay.url }));
    ({ cookie } = await logIn(bff, fakeAccessToken(identityId)));
  });
  afterAll(async () => {
    await bff?.close();
    replay?.server.close();
  });

  const roleId = "276f6255-ee05-43dd-9375-7030019123a5";
  const calls = [
    ["projectRoles.list", "GET", `/api/v2/workspace/${projectId}/roles`, undefined],
    ["projectRoles.getBySlug", "GET", `/api/v2/workspace/${projectId}/roles/slug/secret-reader`, undefined],
    [
      "projectRoles.update",
      "PATCH",
      `/api/v2/workspace/${projectId}/roles/${roleId}`,
      { name: "Reader", permissions: [{ subject: "secrets", action: ["read"] }] },
    ],
    ["projectRoles.delete", "DELETE", `/api/v2/workspace/${projectId}/roles/${roleId}`, undefined],
  ] as const;

  it.each(calls)("%s answers in the contract's shape, on the path the server has", async (id, method, path, body) => {
    replay.requests.length = 0;
    const res = await bff.send({
      method,
      path,
      headers: { ...(body ? JSON_CSRF : CSRF), cookie },
      ...(body && { body: JSON.stringify(body) }),
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(endpoints[id].response.safeParse(res.json).success).toBe(true);
    // Where the recorded server answered the contract path it is used; else its v1 path by slug.
    const last = replay.requests.filter((r) => r.startsWith(method)).at(-1);
    if (findRecording(loadRecordings(dir), method, path)) expect(last).toBe(`${method} ${path}`);
    else expect(last).toMatch(new RegExp(`^${method} /api/v1/workspace/console-ref-[a-z0-9]+/roles`));
  });
});
