import { endpoints } from "@keyhold/contract";
import { recording } from "@keyhold/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSON_CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordedRequest, type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";
import { fakeAccessToken, membership } from "../test/samples.ts";

/**
 * A project's audit retention on an October 2024 server: set by slug under v1, answering the
 * project as `workspace` (recorded: 2024-10-more 054); the project is read by id to learn the
 * slug (2024-10 052). The console sends the current path by id.
 */
const project = (recording(2024, "052-").body as { workspace: Record<string, unknown> }).workspace;
const updated = recording(2024, "054-", "more").body as { message: string; workspace: Record<string, unknown> };

describe("a project's audit retention through the BFF in front of an October 2024 server", () => {
  let upstream: RecordingUpstream;
  let bff: TestBff;
  let cookie: string;
  let sentDays: unknown;

  const answer = (request: RecordedRequest) => {
    if (request.url.startsWith("/api/v1/identities/")) return { status: 200, body: { identity: membership() } };
    if (request.method === "GET" && request.url === `/api/v1/workspace/${project.id}`) {
      return { status: 200, body: { workspace: project } };
    }
    if (request.method === "PUT" && request.url === `/api/v1/workspace/${project.slug}/audit-logs-retention`) {
      sentDays = (JSON.parse(request.body) as { auditLogsRetentionDays: unknown }).auditLogsRetentionDays;
      return { status: 200, body: { ...updated, workspace: { ...project, auditLogsRetentionDays: sentDays } } };
    }
    return {
      status: 404,
      body: { statusCode: 404, message: `Route ${request.method}:${request.url} not found`, error: "Not Found" },
    };
  };

  beforeAll(async () => {
    upstream = await startRecordingUpstream(answer);
    bff = await startBff(testConfig({ upstreamOrigin: upstream.origin }));
    ({ cookie } = await logIn(bff, fakeAccessToken()));
  });
  afterAll(async () => {
    await bff?.close();
    await upstream?.close();
  });

  it("sets it by slug and answers the project under the current key", async () => {
    const res = await bff.send({
      method: "PUT",
      path: `/api/v1/projects/${project.id}/audit-logs-retention`,
      headers: { ...JSON_CSRF, cookie },
      body: JSON.stringify({ auditLogsRetentionDays: 14 }),
    });
    expect(res.status, res.text).toBe(200);
    const parsed = endpoints["projects.updateAuditLogsRetention"].response.parse(res.json);
    expect(parsed.project).toMatchObject({ id: project.id, auditLogsRetentionDays: 14 });
    expect(sentDays).toBe(14);
    expect(
      upstream.requests.filter((r) => !r.url.startsWith("/api/v1/identities/")).map((r) => `${r.method} ${r.url}`),
    ).toEqual([
      `PUT /api/v1/projects/${project.id}/audit-logs-retention`,
      `GET /api/v1/workspace/${project.id}`,
      `PUT /api/v1/workspace/${project.slug}/audit-logs-retention`,
    ]);
  });
});
