import { endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject, memberWithRoles } from "../test/project-fixtures.ts";

/**
 * How long events are kept: a project's own retention (project settings:edit, on the mid-2026
 * path by id and the October 2024 path by slug) and the organisation's default (read by members,
 * changed by admins), 1 to 3650 days.
 */
describeEachDatabase("audit log retention settings", (kind) => {
  let svc: TestService;
  let project: { id: string; slug: string };
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    svc = await startService({ kind });
    project = await createProject(svc);
    for (const role of ["member", "viewer"]) {
      tokens[role] = (await memberWithRoles(svc, project.id, [role], `retention-${role}`)).token;
    }
    tokens.outsider = (await identityWithToken(svc, { name: "retention-outsider", role: "member" })).token;
    tokens.orgNoAccess = (await identityWithToken(svc, { name: "retention-no-access", role: "no-access" })).token;
  });
  afterAll(async () => svc?.close());

  const setProject = (days: unknown, token?: string) =>
    svc.endpoint(
      "projects.updateAuditLogsRetention",
      { params: { projectId: project.id }, body: { auditLogsRetentionDays: days } },
      { token: token ?? svc.adminToken },
    );
  const stored = async () =>
    endpoints["projects.get"].response.parse(
      (await svc.endpoint("projects.get", { params: { workspaceId: project.id } })).body,
    ).workspace.auditLogsRetentionDays;

  it("a project admin or member (settings:edit) sets the project's retention; it is stored", async () => {
    const set = await setProject(7);
    expect(set.status).toBe(200);
    expect(endpoints["projects.updateAuditLogsRetention"].response.parse(set.body).project.auditLogsRetentionDays).toBe(
      7,
    );
    expect(await stored()).toBe(7);
    expect((await setProject(3650, tokens.member)).status).toBe(200);
    expect(await stored()).toBe(3650);
  });

  it("the October 2024 path names the project by slug; an unknown slug is not found", async () => {
    const set = await svc.endpoint("projects.updateAuditLogsRetentionLegacy", {
      params: { workspaceSlug: project.slug },
      body: { auditLogsRetentionDays: 14 },
    });
    expect(set.status).toBe(200);
    expect(await stored()).toBe(14);
    const unknown = await svc.endpoint("projects.updateAuditLogsRetentionLegacy", {
      params: { workspaceSlug: "no-such-project" },
      body: { auditLogsRetentionDays: 14 },
    });
    expect(unknown.status).toBe(404);
  });

  it("a viewer, a non-member and an unknown project are refused; nothing changes", async () => {
    const viewer = await setProject(1, tokens.viewer);
    expect([viewer.status, (viewer.body as { error: string }).error]).toEqual([403, "PermissionDenied"]);
    const outsider = await setProject(1, tokens.outsider);
    expect([outsider.status, (outsider.body as { error: string }).error]).toEqual([403, "ProjectMembershipNotFound"]);
    const unknown = await svc.endpoint("projects.updateAuditLogsRetention", {
      params: { projectId: "a3c1f2de-0000-4000-8000-000000000000" },
      body: { auditLogsRetentionDays: 1 },
    });
    expect(unknown.status).toBe(404);
    expect(await stored()).toBe(14);
  });

  it.each([0, 3651, 1.5, "7", null])("%j days is refused with 422 naming the field", async (days) => {
    for (const answer of [
      await setProject(days),
      await svc.endpoint("organizations.updateAuditLogsRetention", { body: { auditLogsRetentionDays: days } }),
    ]) {
      expect(answer.status).toBe(422);
      expect((answer.body as { message: { path: string[] }[] }).message[0]?.path).toEqual(["auditLogsRetentionDays"]);
    }
  });

  it("the org default is 90 days; members read it, only admins change it", async () => {
    const read = (token?: string) =>
      svc.endpoint("organizations.getAuditLogsRetention", {}, { token: token ?? svc.adminToken });
    expect((await read()).body).toEqual({ auditLogsRetentionDays: 90 });
    expect((await read(tokens.member)).body).toEqual({ auditLogsRetentionDays: 90 });
    expect((await read(tokens.orgNoAccess)).status).toBe(403);
    const byMember = await svc.endpoint(
      "organizations.updateAuditLogsRetention",
      { body: { auditLogsRetentionDays: 30 } },
      { token: tokens.member },
    );
    expect([byMember.status, (byMember.body as { message: string }).message]).toEqual([
      403,
      "You are not allowed to edit on settings",
    ]);
    const byAdmin = await svc.endpoint("organizations.updateAuditLogsRetention", {
      body: { auditLogsRetentionDays: 30 },
    });
    expect([byAdmin.status, byAdmin.body]).toEqual([200, { auditLogsRetentionDays: 30 }]);
    expect((await read(tokens.member)).body).toEqual({ auditLogsRetentionDays: 30 });
  });
});
