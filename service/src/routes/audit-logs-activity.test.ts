import type { AuditLog } from "@keyhold/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject, memberWithRoles } from "../test/project-fixtures.ts";

/**
 * What the console's "View activity" of a secret asks: a secret changed and read through the
 * API, then its project's events filtered to that secret, with who did it and which request.
 */
describeEachDatabase("audit log lists: a secret's activity as the service recorded it", (kind) => {
  let svc: TestService;
  let projectId: string;
  let member: { identityId: string; token: string };
  const where = () => ({ workspaceId: projectId, environment: "dev", secretPath: "/" });

  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = (await createProject(svc)).id;
    member = await memberWithRoles(svc, projectId, ["member"], "activity-member");
  });
  afterAll(async () => svc?.close());

  it("lists the secret's events newest first with the actor and the request id each answer carried", async () => {
    const created = await svc.endpoint(
      "secrets.create",
      { params: { secretName: "ACTIVITY_KEY" }, body: { ...where(), secretValue: "first-value" } },
      { headers: { "x-request-id": "req-activity-create" } },
    );
    expect(created.status).toBe(200);
    const updated = await svc.endpoint(
      "secrets.update",
      { params: { secretName: "ACTIVITY_KEY" }, body: { ...where(), secretValue: "second-value" } },
      { token: member.token, headers: { "x-request-id": "req-activity-update" } },
    );
    expect(updated.status).toBe(200);
    const other = await svc.endpoint("secrets.create", {
      params: { secretName: "OTHER_KEY" },
      body: { ...where(), secretValue: "other-value" },
    });
    expect(other.status).toBe(200);

    const listed = await svc.endpoint("auditLogs.listProject", {
      params: { workspaceId: projectId },
      query: { environment: "dev", secretPath: "/", secretKey: "ACTIVITY_KEY" },
    });
    expect(listed.status).toBe(200);
    const logs = (listed.body as { auditLogs: AuditLog[] }).auditLogs;
    expect(
      logs.map((log) => [log.event.type, log.actor.metadata.identityId, log.requestId, log.event.metadata.secretKey]),
    ).toEqual([
      ["update-secret", member.identityId, "req-activity-update", "ACTIVITY_KEY"],
      ["create-secret", svc.info.adminIdentityId, "req-activity-create", "ACTIVITY_KEY"],
    ]);
    expect(JSON.stringify(logs)).not.toMatch(/first-value|second-value/);

    const byMember = await svc.endpoint("auditLogs.listOrg", {
      query: { projectId, actorType: "identity", actor: member.identityId },
    });
    expect((byMember.body as { auditLogs: AuditLog[] }).auditLogs.map((log) => log.requestId)).toEqual([
      "req-activity-update",
    ]);
  });
});
