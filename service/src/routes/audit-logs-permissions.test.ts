import type { AuditLog } from "@keyhold/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ProjectRule } from "../domain/project-permissions.ts";
import { seedAuditEvents } from "../test/audit-seed.ts";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject, memberWithRoles } from "../test/project-fixtures.ts";
import { seedCustomRole } from "../test/project-seed.ts";

const PROJECT_TYPES = ["get-secrets", "get-secret", "create-secret", "update-secret", "delete-secret", "create-folder"];
const START = "2026-11-01T00:00:00.000Z";
const END = "2026-11-02T00:00:00.000Z";

/**
 * Who may read which events: the org route needs org `audit-logs:read` (admin and member, not
 * no-access); a project's events need the project permission, and project rules with eventType
 * conditions ($eq $ne $in $glob, forbid rules) decide which of them the caller sees, on both
 * routes. Events are seeded: one per type in the project, one in another project, one org event.
 */
describeEachDatabase("audit log lists: who reads which events", (kind) => {
  let svc: TestService;
  let projectId: string;
  let otherProjectId: string;
  const tokens: Record<string, string> = {};

  const withRole = async (name: string, rules: ProjectRule[]) => {
    await seedCustomRole(svc, projectId, { slug: name, name, permissions: rules });
    tokens[name] = (await memberWithRoles(svc, projectId, [name], name)).token;
  };

  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = (await createProject(svc)).id;
    otherProjectId = (await createProject(svc)).id;
    const at = (minute: number) => new Date(Date.parse(START) + minute * 60_000).toISOString();
    await seedAuditEvents(svc, [
      ...PROJECT_TYPES.map((type, i) => ({
        orgId: svc.info.orgId,
        projectId,
        type,
        metadata: { environment: "dev", secretPath: "/" },
        createdAt: at(i + 1),
      })),
      { orgId: svc.info.orgId, projectId: otherProjectId, type: "create-secret", createdAt: at(10) },
      { orgId: svc.info.orgId, type: "create-identity", createdAt: at(11) },
    ]);
    for (const role of ["admin", "member", "viewer", "no-access"]) {
      tokens[role] = (await memberWithRoles(svc, projectId, [role], `project-${role}`)).token;
    }
    const read = (conditions?: Record<string, unknown>, inverted = false): ProjectRule => ({
      subject: "audit-logs",
      action: ["read"],
      ...(conditions && { conditions }),
      ...(inverted && { inverted }),
    });
    await withRole("only-get-secrets", [read({ eventType: { $eq: "get-secrets" } })]);
    await withRole("reads-of-values", [read({ eventType: { $in: ["get-secrets", "get-secret"] } })]);
    await withRole("single-secret-changes", [read({ eventType: { $glob: "{create,update,delete}-secret" } })]);
    await withRole("all-but-folders", [read({ eventType: { $ne: "create-folder" } })]);
    await withRole("all-but-deletes", [read(), read({ eventType: "delete-secret" }, true)]);
    await withRole("secrets-only", [{ subject: "secrets", action: ["read"] }]);
    tokens.outsider = (await identityWithToken(svc, { name: "not-a-member", role: "member" })).token;
    tokens.orgNoAccess = (await identityWithToken(svc, { name: "org-no-access", role: "no-access" })).token;
  });
  afterAll(async () => svc?.close());

  const typesOf = (body: unknown) => (body as { auditLogs: AuditLog[] }).auditLogs.map((log) => log.event.type).sort();
  const window = { startDate: START, endDate: END };
  const projectList = (token: string | undefined, query: Record<string, string> = {}) =>
    svc.endpoint(
      "auditLogs.listProject",
      { params: { workspaceId: projectId }, query: { ...window, ...query } },
      { token: token ?? svc.adminToken },
    );
  const orgList = (token: string | undefined, query: Record<string, string> = {}) =>
    svc.endpoint("auditLogs.listOrg", { query: { ...window, ...query } }, { token: token ?? svc.adminToken });

  it("the org admin reads every event of the org; with projectId, that project's", async () => {
    const all = await orgList(undefined);
    expect(typesOf(all.body)).toEqual([...PROJECT_TYPES, "create-secret", "create-identity"].sort());
    expect(typesOf((await orgList(undefined, { projectId })).body)).toEqual([...PROJECT_TYPES].sort());
  });

  it.each(["admin", "member", "viewer"])(
    "a project %s reads all of the project's events on both routes",
    async (role) => {
      expect(typesOf((await projectList(tokens[role])).body)).toEqual([...PROJECT_TYPES].sort());
      expect(typesOf((await orgList(tokens[role], { projectId })).body)).toEqual([...PROJECT_TYPES].sort());
    },
  );

  it("an org member reads the whole org's list (Infisical's member role holds audit-logs:read)", async () => {
    const answer = await orgList(tokens.member);
    expect(answer.status).toBe(200);
    expect(typesOf(answer.body)).toHaveLength(PROJECT_TYPES.length + 2);
  });

  it.each([
    ["only-get-secrets", ["get-secrets"]],
    ["reads-of-values", ["get-secret", "get-secrets"]],
    ["single-secret-changes", ["create-secret", "delete-secret", "update-secret"]],
    ["all-but-folders", PROJECT_TYPES.filter((t) => t !== "create-folder").sort()],
    ["all-but-deletes", PROJECT_TYPES.filter((t) => t !== "delete-secret").sort()],
  ])("role %s sees exactly the event types its rules allow", async (role, expected) => {
    expect(typesOf((await projectList(tokens[role])).body)).toEqual(expected);
    expect(typesOf((await orgList(tokens[role], { projectId })).body)).toEqual(expected);
  });

  it("asking for a type the rules forbid answers an empty list, not the type", async () => {
    const single = await projectList(tokens["only-get-secrets"], { eventType: "create-secret" });
    expect([single.status, typesOf(single.body)]).toEqual([200, []]);
    const several = await orgList(tokens["only-get-secrets"], { projectId, eventType: "create-secret,get-secrets" });
    expect(typesOf(several.body)).toEqual(["get-secrets"]);
  });

  it.each([
    ["no-access", "PermissionDenied", "You are not allowed to read on audit-logs"],
    ["secrets-only", "PermissionDenied", "You are not allowed to read on audit-logs"],
    ["outsider", "ProjectMembershipNotFound", undefined],
  ])("%s is refused a project's events on both routes", async (who, error, message) => {
    for (const answer of [await projectList(tokens[who]), await orgList(tokens[who], { projectId })]) {
      const body = answer.body as { error: string; message: string };
      expect([answer.status, body.error]).toEqual([403, error]);
      if (message) expect(body.message).toBe(message);
    }
  });

  it("an org no-access identity cannot read the org list; a project of another org is not found", async () => {
    const refused = await orgList(tokens.orgNoAccess);
    expect([refused.status, (refused.body as { error: string }).error]).toEqual([403, "PermissionDenied"]);
    const unknown = await svc.endpoint("auditLogs.listProject", {
      params: { workspaceId: "6ad4a226-0000-4000-8000-000000000000" },
    });
    expect(unknown.status).toBe(404);
  });
});
