import {
  BffSessionSchema,
  SERVER_FEATURES_HEADER,
  unavailableFeaturesStamp,
  type Endpoint,
  endpointList,
  endpoints,
  ErrorBodySchema,
} from "@keyhold/contract";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRecordings } from "@keyhold/fixtures";
import { type ReplayUpstream, startReplayUpstream } from "../replay/replay-upstream.ts";
import { CSRF, JSON_CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { fakeAccessToken, sampleSets } from "../test/samples.ts";
import type { Upstream } from "../upstream/client.ts";
import { NOT_FOUND_CAUSES } from "./errors.ts";
import { WITHHELD } from "./rules.ts";
import { UpstreamCompat } from "./upstream-compat.ts";

const silent = pino({ level: "silent" });
const compat = new UpstreamCompat({} as Upstream);

function endpointAt(method: string, path: string): Endpoint | undefined {
  return (endpointList as readonly Endpoint[]).find(
    (e) => e.method === method && new RegExp(`^${e.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(path),
  );
}

/** The identity whose detail was recorded (004): the one the replayed sign-in is for. */
function recordedIdentityId(dir: string): string {
  const recording = loadRecordings(dir).find((r) => r.file.startsWith("004-"));
  return (recording?.body as { identity: { identityId: string } }).identity.identityId;
}

describe.each([
  ["October 2024", sampleSets[2024]],
  ["mid-2026", sampleSets[2026]],
] as const)("recorded answers of a %s server", (_version, dir) => {
  const recordings = loadRecordings(dir);

  const successes = recordings.flatMap((r) => {
    const endpoint = r.status < 300 ? endpointAt(r.method, r.path) : undefined;
    return endpoint ? [{ ...r, endpoint }] : [];
  });
  it.each(successes.map((r) => [r.file, r] as const))("%s reads in the console's shape", (_file, r) => {
    const answer = compat.read(r.endpoint, { status: r.status, text: JSON.stringify(r.body) }, "req-replay", silent);
    expect(r.endpoint.response.safeParse(answer.json).success).toBe(true);
  });

  const failures = recordings.filter((r) => r.status >= 400);
  it.each(failures.map((r) => [r.file, r] as const))("%s reads as one error envelope", (_file, r) => {
    const endpoint = endpointAt(r.method, r.path) ?? endpoints["identities.get"];
    const answer = compat.read(endpoint, { status: r.status, text: JSON.stringify(r.body) }, "req-replay", silent);
    const body = ErrorBodySchema.parse(answer.json);
    expect(body.reqId).not.toBe("");
    expect(body.error).toMatch(/^[A-Za-z]+$/);
    // Validation failures become 422, and older servers' 500s that mean "no such record" 404.
    const meant = NOT_FOUND_CAUSES.has((r.body as { error?: string }).error ?? "") ? 404 : r.status;
    expect(answer.status === 422 || answer.status === meant).toBe(true);
  });

  it("withholds the stored reviewer JWT that Kubernetes auth answers carry, saying only that one is set", () => {
    const answers = recordings.filter((r) => /-kubernetes-auth-(attach|get|update)\.json$/.test(r.file));
    expect(answers.map((r) => r.file)).toHaveLength(3);
    for (const r of answers) {
      const sent = (r.body as { identityKubernetesAuth: { tokenReviewerJwt: string } }).identityKubernetesAuth;
      expect(sent.tokenReviewerJwt).not.toBe("");
      const endpoint = endpointAt(r.method, r.path) as Endpoint;
      const answer = compat.read(endpoint, { status: r.status, text: JSON.stringify(r.body) }, "req-replay", silent);
      expect((answer.json as typeof r.body & { identityKubernetesAuth: object }).identityKubernetesAuth).toMatchObject({
        tokenReviewerJwt: WITHHELD,
      });
      expect(answer.text).not.toContain(sent.tokenReviewerJwt);
    }
  });

  it("reads the refusal of a secret's versions to an identity as a route for users' sessions only", () => {
    const refused = recordings.find((r) => r.file.endsWith("-secret-versions-list.json") && r.status === 403);
    if (!refused) throw new Error("no refused versions list recorded");
    const answer = compat.read(
      endpoints["secretVersions.list"],
      { status: refused.status, text: JSON.stringify(refused.body) },
      "req-replay",
      silent,
    );
    expect(answer.status).toBe(403);
    expect(ErrorBodySchema.parse(answer.json)).toMatchObject({
      error: "UserSessionOnly",
      message: expect.stringMatching(
        /^This server answers this only to a user's session, not to a machine identity \(Forbidden access to \/api\/v1\/secret\/[\w-]+\/secret-versions/,
      ),
    });
  });
});

describe.each([
  ["October 2024", sampleSets[2024], false],
  ["mid-2026", sampleSets[2026], true],
] as const)("the BFF in front of a replayed %s server", (_version, dir, current) => {
  let replay: ReplayUpstream;
  let bff: TestBff;
  let cookie: string;

  beforeAll(async () => {
    replay = await startReplayUpstream(dir);
    bff = await startBff(testConfig({ upstreamOrigin: replay.url }));
    ({ cookie } = await logIn(bff, fakeAccessToken(recordedIdentityId(dir))));
  });
  afterAll(async () => {
    await bff?.close();
    replay?.server.close();
  });

  const get = (path: string) => bff.send({ path, headers: { ...CSRF, cookie } });

  it("signs in and says which features the server lacks", async () => {
    const session = BffSessionSchema.parse((await get("/bff/session")).json);
    expect(session.identity.id).toBe(recordedIdentityId(dir));
    const available = Object.fromEntries(session.server.features.map((f) => [f.name, f.available]));
    expect(available).toMatchObject({ deleteProtection: current, multipleAuthMethods: current });
    for (const feature of session.server.features) expect(Boolean(feature.reason)).toBe(!feature.available);
  });

  it("lists the recorded identities with their auth methods", async () => {
    const session = BffSessionSchema.parse((await get("/bff/session")).json);
    const res = await get(`/api/v1/identities?orgId=${session.organization.id}`);
    expect(res.status).toBe(200);
    const { identities } = endpoints["identities.list"].response.parse(res.json);
    expect(identities.length).toBeGreaterThan(5);
    expect(identities.some((m) => m.identity.authMethods.length > 0)).toBe(true);
  });

  it("searches identities a page at a time through the listing, the search route being missing there", async () => {
    const search = (body: object) =>
      bff.send({
        method: "POST",
        path: "/api/v1/identities/search",
        headers: { ...JSON_CSRF, cookie },
        body: JSON.stringify(body),
      });
    const session = BffSessionSchema.parse((await get("/bff/session")).json);
    const all = endpoints["identities.list"].response.parse(
      (await get(`/api/v1/identities?orgId=${session.organization.id}`)).json,
    ).identities;
    replay.requests.length = 0;
    const first = await search({ limit: 5, offset: 0 });
    expect(first.status).toBe(200);
    const page = endpoints["identities.search"].response.parse(first.json);
    expect(page.totalCount).toBe(all.length);
    expect(page.identities).toHaveLength(5);
    const matching = all.filter((m) => m.identity.name.includes("bar-"));
    const found = endpoints["identities.search"].response.parse(
      (await search({ search: { name: "BAR-" }, limit: 100, offset: 2 })).json,
    );
    expect(found.totalCount).toBe(matching.length);
    expect(found.identities.map((m) => m.identity.name)).toEqual(
      matching
        .map((m) => m.identity.name)
        .sort((a, b) => a.localeCompare(b))
        .slice(2),
    );
    // What the listing's records lack still counts: the search's answer is not new evidence.
    const features = BffSessionSchema.parse((await get("/bff/session")).json).server.features;
    expect(features.find((f) => f.name === "deleteProtection")?.available).toBe(current);
    // Found missing once, then the listing straight away.
    expect(replay.requests).toEqual([
      "POST /api/v1/identities/search",
      "GET /api/v1/identities",
      "GET /api/v1/identities",
    ]);
  });

  it("says on each answer what the server lacks, as far as the BFF has seen, so the console can catch up", async () => {
    const project = (loadRecordings(dir).find((r) => r.file.startsWith("052-"))?.body as { workspace: { id: string } })
      .workspace.id;
    const res = await get(`/api/v1/workspace/${project}`);
    expect(res.status).toBe(200);
    // Reading a project is when the BFF learns whether this server keeps project descriptions.
    const session = BffSessionSchema.parse((await get("/bff/session")).json);
    expect(session.server.features.find((f) => f.name === "projectDescription")?.available).toBe(current);
    expect(res.headers[SERVER_FEATURES_HEADER]).toBe(unavailableFeaturesStamp(session.server.features));
    if (current) expect(res.headers[SERVER_FEATURES_HEADER]).toBe("none");
    else
      expect(res.headers[SERVER_FEATURES_HEADER]).toMatch(/^deleteProtection,multipleAuthMethods,projectDescription/);
  });

  it("answers an unknown identity with the server's 404 in one envelope", async () => {
    const res = await get("/api/v1/identities/00000000-0000-4000-8000-000000000000");
    expect(res.status).toBe(404);
    expect(ErrorBodySchema.parse(res.json)).toMatchObject({ error: "NotFound" });
  });

  it("answers an unknown project with 404 in one envelope, whatever status the server chose", async () => {
    const res = await get("/api/v1/workspace/00000000-0000-4000-8000-000000000000");
    expect(res.status).toBe(404);
    expect(ErrorBodySchema.parse(res.json)).toMatchObject({ statusCode: 404, error: "NotFound" });
  });

  it("creates a project role on the path this server has, and remembers it", async () => {
    const projectId = "a4f170d4-346a-447e-ae95-ccdd092a6144";
    const create = () =>
      bff.send({
        method: "POST",
        path: `/api/v2/workspace/${projectId}/roles`,
        headers: { ...JSON_CSRF, cookie },
        body: JSON.stringify({
          slug: "reader",
          name: "Reader",
          permissions: [{ subject: "secrets", action: ["read"] }],
        }),
      });
    replay.requests.length = 0;
    const first = await create();
    expect(first.status).toBe(200);
    expect(endpoints["projectRoles.create"].response.safeParse(first.json).success).toBe(true);
    const second = await create();
    expect(second.status).toBe(200);
    const posts = replay.requests.filter((r) => r.startsWith("POST"));
    if (current) {
      expect(posts).toEqual([`POST /api/v2/workspace/${projectId}/roles`, `POST /api/v2/workspace/${projectId}/roles`]);
    } else {
      // Tried once, found missing, then the slug-addressed v1 path for both calls.
      expect(posts).toEqual([
        `POST /api/v2/workspace/${projectId}/roles`,
        "POST /api/v1/workspace/console-ref-g86wa/roles",
        "POST /api/v1/workspace/console-ref-g86wa/roles",
      ]);
    }
  });

  it("notes that privileges v2 are missing once their route is not found", async () => {
    await get("/api/v2/identity-project-additional-privilege/5f9b1c9e-0c44-4e4b-9a70-2a0a7f8e1d11");
    const session = BffSessionSchema.parse((await get("/bff/session")).json);
    expect(session.server.features.find((f) => f.name === "privilegesV2")?.available).toBe(current);
  });
});
