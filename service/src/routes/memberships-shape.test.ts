import { endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { seedCustomRole, seedProject } from "../test/project-seed.ts";
import { recordedBody, shapeOf } from "../test/shapes.ts";

/**
 * Each membership endpoint answers with the mid-2026 server's exact shape (keys at every depth,
 * types), the calls made in the recorded order: add, duplicate, list, get, update, get, the
 * identity's projects, remove; and a user invitation with the user list before and after.
 */
describeEachDatabase("memberships: the recorded server's shapes", (kind) => {
  let svc: TestService;
  let projectId: string;
  let identityId: string;
  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = await seedProject(svc, "Console Ref");
    await seedCustomRole(svc, projectId, {
      slug: "secret-reader",
      name: "Secret Reader (dev+staging)",
      permissions: [{ subject: "secrets", action: ["read"], conditions: { environment: { $in: ["dev", "staging"] } } }],
    });
    const created = await svc.endpoint("identities.create", {
      body: { name: "ci-deployer", organizationId: svc.info.orgId },
    });
    identityId = endpoints["identities.create"].response.parse(created.body).identity.id;
    await svc.endpoint("tokenAuth.attach", { params: { identityId }, body: {} });
  });
  afterAll(async () => svc?.close());

  const at = () => ({ params: { projectId, identityId } });

  it("075 user memberships of a project without users", async () => {
    const res = await svc.endpoint("projects.listMemberships", { params: { workspaceId: projectId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(recordedBody("075-"));
  });

  it("076 invite, then 077 the user list", async () => {
    const res = await svc.endpoint("projectUsers.invite", {
      params: { projectId },
      body: { usernames: [], emails: ["admin@example.com"] },
    });
    expect(res.status).toBe(200);
    expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("076-")));
    const list = await svc.endpoint("projects.listMemberships", { params: { workspaceId: projectId } });
    expect(list.status).toBe(200);
    // Invited users have no first or last name until they sign up (null); the recorded admin had
    // both. Every other key and type must match.
    const body = structuredClone(list.body) as { memberships: { user: Record<string, unknown> }[] };
    expect(body.memberships[0]?.user).toMatchObject({ firstName: null, lastName: null });
    for (const m of body.memberships) Object.assign(m.user, { firstName: "", lastName: "" });
    expect(shapeOf(body)).toEqual(shapeOf(recordedBody("077-")));
  });

  it("081 add", async () => {
    const res = await svc.endpoint("identityMemberships.add", { ...at(), body: { role: "viewer" } });
    expect(res.status).toBe(200);
    expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("081-")));
  });

  it("082 duplicate add", async () => {
    const res = await svc.endpoint("identityMemberships.add", { ...at(), body: { role: "viewer" } });
    expect(res.status).toBe(400);
    expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("082-")));
    expect((res.body as { message: string }).message).toBe((recordedBody("082-") as { message: string }).message);
  });

  it("083 list", async () => {
    const res = await svc.endpoint("identityMemberships.list", { params: { projectId } });
    expect(res.status).toBe(200);
    expect((res.body as { totalCount: number }).totalCount).toBe(2);
    expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("083-")));
  });

  it("084 get", async () => {
    const res = await svc.endpoint("identityMemberships.get", at());
    expect(res.status).toBe(200);
    expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("084-")));
  });

  it("085 update roles, then 086 get", async () => {
    const res = await svc.endpoint("identityMemberships.update", {
      ...at(),
      body: {
        roles: [
          { role: "member", isTemporary: false },
          {
            role: "secret-reader",
            isTemporary: true,
            temporaryMode: "relative",
            temporaryRange: "1h",
            temporaryAccessStartTime: "2026-11-23T16:31:52.178Z",
          },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("085-")));
    const got = await svc.endpoint("identityMemberships.get", at());
    expect(shapeOf(got.body)).toEqual(shapeOf(recordedBody("086-")));
  });

  it("087 the identity's project memberships", async () => {
    const res = await svc.endpoint("identities.listProjectMemberships", { params: { identityId } });
    expect(res.status).toBe(200);
    expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("087-")));
  });

  it("153 remove", async () => {
    const res = await svc.endpoint("identityMemberships.remove", at());
    expect(res.status).toBe(200);
    expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("153-")));
  });
});
