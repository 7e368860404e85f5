import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BffSessionSchema, endpoints } from "@keyhold/contract";
import { loadRecordings } from "@keyhold/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayUpstream, startReplayUpstream } from "../replay/replay-upstream.ts";
import { CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { fakeAccessToken, sampleSets } from "../test/samples.ts";

/** The recorded project (047) of a sample set, and the identity whose privileges were listed. */
function recorded(dir: string) {
  const recordings = loadRecordings(dir);
  const body = (prefix: string) => recordings.find((r) => r.file.startsWith(prefix))?.body;
  const project = (body("047-") as { project: { id: string; slug: string } }).project;
  const listed = recordings.find(
    (r) =>
      r.method === "GET" &&
      ["/api/v1/additional-privilege/identity", "/api/v2/identity-project-additional-privilege"].includes(r.path) &&
      r.status === 200,
  );
  const identityId = (listed?.request as { query?: { identityId?: string } } | undefined)?.query?.identityId;
  if (!identityId) throw new Error(`no recorded privilege list in ${dir}`);
  return { projectId: project.id, projectSlug: project.slug, identityId };
}

const list = endpoints["identityPrivileges.list"];

async function start(dir: string, identityId: string) {
  const replay = await startReplayUpstream(dir);
  const bff = await startBff(testConfig({ upstreamOrigin: replay.url }));
  const { cookie } = await logIn(bff, fakeAccessToken(identityId));
  const get = (p: string) => bff.send({ method: "GET", path: p, headers: { ...CSRF, cookie } });
  return { replay, bff, get };
}

/**
 * An identity's privileges are listed through the BFF in front of both recorded servers: on the
 * v2 list where the server has it (without rules), else on the v1 list by project slug, whose
 * records carry their rules.
 */
describe.each([
  ["October 2024", sampleSets[2024], false],
  ["mid-2026", sampleSets[2026], true],
] as const)("identity privileges listed through the BFF in front of a replayed %s server", (_v, dir, current) => {
  const { projectId, projectSlug, identityId } = recorded(dir);
  let replay: ReplayUpstream;
  let bff: TestBff;
  let get: (p: string) => ReturnType<TestBff["send"]>;

  beforeAll(async () => {
    ({ replay, bff, get } = await start(dir, identityId));
  });
  afterAll(async () => {
    await bff?.close();
    replay?.server.close();
  });

  const path = () => `${list.path}?identityId=${identityId}&projectId=${projectId}`;

  it("answers in the contract's shape, on the route the server has", async () => {
    replay.urls.length = 0;
    const res = await get(path());
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const parsed = list.response.parse(res.json);
    expect(parsed.privileges.length).toBeGreaterThan(0);
    const gets = replay.urls.filter(
      (u) => u.startsWith("GET /api/v1/additional") || u.startsWith("GET /api/v2/identity"),
    );
    if (current) {
      expect(gets).toEqual([`GET ${path()}`]);
      expect(parsed.privileges.every((p) => p.permissions === undefined)).toBe(true);
    } else {
      // Tried once on v2, found missing, then the v1 list by the project's slug.
      expect(gets).toEqual([
        `GET ${path()}`,
        `GET /api/v1/additional-privilege/identity?identityId=${identityId}&projectSlug=${projectSlug}`,
      ]);
      // The recorded v1 records carry their rules, as the console counts them.
      expect(parsed.privileges.every((p) => (p.permissions ?? []).length > 0)).toBe(true);
      expect(parsed.privileges[0]?.permissions?.[0]).toMatchObject({ subject: "secrets", action: ["read"] });
    }
    const session = BffSessionSchema.parse((await get("/bff/session")).json);
    expect(session.server.features.find((f) => f.name === "privilegesV2")?.available).toBe(current);
  });

  it("goes straight to the route that answered on the next list", async () => {
    replay.urls.length = 0;
    expect((await get(path())).status).toBe(200);
    expect(replay.urls.filter((u) => u.includes("additional-privilege"))).toHaveLength(1);
  });
});

describe("identity privileges on a server with neither list", () => {
  const { projectId, identityId } = recorded(sampleSets[2024]);
  let dir: string;
  let server: Awaited<ReturnType<typeof start>>;

  beforeAll(async () => {
    // The October 2024 recordings without any privilege route: every privilege path is "not found".
    dir = mkdtempSync(path.join(tmpdir(), "keyhold-no-privileges-"));
    for (const file of readdirSync(sampleSets[2024])) {
      if (!file.includes("identity-privileges")) copyFileSync(path.join(sampleSets[2024], file), path.join(dir, file));
    }
    server = await start(dir, identityId);
  });
  afterAll(async () => {
    await server?.bff.close();
    server?.replay.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers route not found in the contract's error envelope, so the console counts roles only", async () => {
    const res = await server.get(`${list.path}?identityId=${identityId}&projectId=${projectId}`);
    expect(res.status).toBe(404);
    const body = res.json as { message?: unknown; reqId?: unknown };
    expect(String(body.message)).toMatch(/route .* not found/i);
    expect(typeof body.reqId).toBe("string");
    const session = BffSessionSchema.parse((await server.get("/bff/session")).json);
    expect(session.server.features.find((f) => f.name === "privilegesV2")?.available).toBe(false);
  });
});
