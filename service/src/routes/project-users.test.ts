import { ErrorBodySchema, endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { seedCustomRole, seedProject } from "../test/project-seed.ts";

const parse = {
  invite: endpoints["projectUsers.invite"].response,
  users: endpoints["projects.listMemberships"].response,
};
const readDev = [{ subject: "secrets", action: ["read"], conditions: { environment: "dev" } }];
const error = (body: unknown) => ErrorBodySchema.parse(body);

describeEachDatabase("project user memberships", (kind) => {
  let svc: TestService;
  let usersProject: string;
  beforeAll(async () => {
    svc = await startService({ kind });
    usersProject = await seedProject(svc, "People");
  });
  afterAll(async () => svc?.close());

  const at = (identityId: string, projectId: string) => ({ params: { projectId, identityId } });
  const invite = (body: unknown, project = usersProject, token?: string) =>
    svc.endpoint("projectUsers.invite", { params: { projectId: project }, body }, token === undefined ? {} : { token });
  const listUsers = async (project = usersProject) => {
    const res = await svc.endpoint("projects.listMemberships", { params: { workspaceId: project } });
    expect(res.status).toBe(200);
    return parse.users.parse(res.body).memberships;
  };

  it("lists no users in a new project", async () => {
    expect(await listUsers()).toEqual([]);
  });

  it("invites by e-mail, creating the user, with the member role by default", async () => {
    const res = await invite({ emails: ["Ada@Example.com", "grace@example.com"] });
    expect(res.status).toBe(200);
    const { memberships } = parse.invite.parse(res.body);
    expect(memberships).toHaveLength(2);
    expect(memberships.every((m) => m.projectId === usersProject)).toBe(true);

    const listed = await listUsers();
    expect(listed.map((m) => [m.user.username, m.user.email, m.roles.map((r) => r.role)])).toEqual([
      ["ada@example.com", "ada@example.com", ["member"]],
      ["grace@example.com", "grace@example.com", ["member"]],
    ]);
    expect(listed.map((m) => m.id).sort()).toEqual(memberships.map((m) => m.id).sort());
    expect(listed[0]?.userId).toBe(listed[0]?.user.id);
  });

  it("invites an existing user by username into another project, with the given roles", async () => {
    const other = await seedProject(svc, "People Too");
    await seedCustomRole(svc, other, { slug: "auditor", name: "Auditor", permissions: readDev });
    const res = await invite({ usernames: ["ada@example.com"], roleSlugs: ["viewer", "auditor"] }, other);
    expect(res.status).toBe(200);
    const [membership] = await listUsers(other);
    expect(membership?.user.username).toBe("ada@example.com");
    expect(membership?.roles.map((r) => [r.role, r.customRoleSlug])).toEqual([
      ["custom", "auditor"],
      ["viewer", null],
    ]);
    // Still one user for the address.
    const users = await svc.app.db.selectFrom("users").select("id").where("email", "=", "ada@example.com").execute();
    expect(users).toHaveLength(1);
  });

  it("refuses members already in the project (400), unknown usernames and roles (404), no one (422)", async () => {
    const again = await invite({ emails: ["grace@example.com", "new@example.com"] });
    expect(again.status).toBe(400);
    expect(error(again.body).message).toContain('"grace@example.com"');
    expect((await listUsers()).map((m) => m.user.username)).not.toContain("new@example.com");

    const unknownUser = await invite({ usernames: ["nobody"] });
    expect(unknownUser.status).toBe(404);
    expect((await invite({ emails: ["x@example.com"], roleSlugs: ["deployer"] })).status).toBe(404);
    expect((await invite({})).status).toBe(422);
    expect((await invite({ emails: ["not-an-address"] })).status).toBe(422);
  });

  it("checks member permissions: a viewer identity may list but not invite, and not grant beyond itself", async () => {
    const viewer = await identityWithToken(svc, { name: "users-viewer" });
    const member = await identityWithToken(svc, { name: "users-member" });
    await svc.endpoint("identityMemberships.add", {
      ...at(viewer.identityId, usersProject),
      body: { role: "viewer" },
    });
    await svc.endpoint("identityMemberships.add", {
      ...at(member.identityId, usersProject),
      body: { role: "member" },
    });
    const list = await svc.endpoint(
      "projects.listMemberships",
      { params: { workspaceId: usersProject } },
      { token: viewer.token },
    );
    expect(list.status).toBe(200);
    const denied = await invite({ emails: ["v@example.com"] }, usersProject, viewer.token);
    expect(denied.status).toBe(403);
    expect(error(denied.body)).toMatchObject({
      error: "PermissionDenied",
      message: "You are not allowed to create on member",
    });
    const boundary = await invite({ emails: ["m@example.com"], roleSlugs: ["admin"] }, usersProject, member.token);
    expect(boundary.status).toBe(403);
    expect(error(boundary.body).error).toBe("PermissionBoundaryError");
    expect((await invite({ emails: ["m@example.com"] }, usersProject, member.token)).status).toBe(200);
  });
});
