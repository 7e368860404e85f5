import { randomUUID } from "node:crypto";
import { ErrorBodySchema, endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertIdentity } from "../data/identities.ts";
import { insertOrganization } from "../data/organizations.ts";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { seedCustomRole, seedProject } from "../test/project-seed.ts";

const parse = {
  add: endpoints["identityMemberships.add"].response,
  list: endpoints["identityMemberships.list"].response,
  get: endpoints["identityMemberships.get"].response,
  update: endpoints["identityMemberships.update"].response,
  remove: endpoints["identityMemberships.remove"].response,
  invite: endpoints["projectUsers.invite"].response,
  users: endpoints["projects.listMemberships"].response,
  ofIdentity: endpoints["identities.listProjectMemberships"].response,
};

const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";
const readDev = [{ subject: "secrets", action: ["read"], conditions: { environment: "dev" } }];

describeEachDatabase("project memberships", (kind) => {
  let svc: TestService;
  let projectId: string;
  let secretReaderId: string;

  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = await seedProject(svc, "Payments");
    secretReaderId = await seedCustomRole(svc, projectId, {
      slug: "secret-reader",
      name: "Secret Reader (dev)",
      permissions: readDev,
    });
  });
  afterAll(async () => svc?.close());

  async function newIdentity(name: string): Promise<string> {
    const res = await svc.endpoint("identities.create", { body: { name, organizationId: svc.info.orgId } });
    expect(res.status).toBe(200);
    return endpoints["identities.create"].response.parse(res.body).identity.id;
  }

  const at = (identityId: string, project = projectId) => ({ params: { projectId: project, identityId } });
  const add = (identityId: string, body: unknown, token?: string) =>
    svc.endpoint("identityMemberships.add", { ...at(identityId), body }, token === undefined ? {} : { token });
  const update = (identityId: string, roles: unknown, token?: string) =>
    svc.endpoint(
      "identityMemberships.update",
      { ...at(identityId), body: { roles } },
      token === undefined ? {} : { token },
    );
  const get = async (identityId: string) => {
    const res = await svc.endpoint("identityMemberships.get", at(identityId));
    expect(res.status).toBe(200);
    return parse.get.parse(res.body).identityMembership;
  };
  const error = (body: unknown) => ErrorBodySchema.parse(body);

  describe("identity memberships: happy paths", () => {
    it("adds an identity with the deprecated single role and reads it back", async () => {
      const identityId = await newIdentity("deployer");
      const res = await add(identityId, { role: "viewer" });
      expect(res.status).toBe(200);
      const { identityMembership } = parse.add.parse(res.body);
      expect(identityMembership).toMatchObject({ projectId, identityId });

      const got = await get(identityId);
      expect(got.id).toBe(identityMembership.id);
      expect(got.identity).toEqual({ name: "deployer", id: identityId, authMethods: [] });
      expect(got.project).toEqual({ name: "Payments", id: projectId });
      expect(got.roles).toEqual([
        {
          id: expect.any(String),
          role: "viewer",
          customRoleId: null,
          customRoleName: null,
          customRoleSlug: null,
          isTemporary: false,
          temporaryMode: null,
          temporaryRange: null,
          temporaryAccessStartTime: null,
          temporaryAccessEndTime: null,
        },
      ]);
    });

    it("adds with no role at all as no-access, as Infisical does", async () => {
      const identityId = await newIdentity("idle");
      expect((await add(identityId, {})).status).toBe(200);
      expect((await get(identityId)).roles.map((r) => r.role)).toEqual(["no-access"]);
    });

    it("adds with several roles, a custom one temporary: end = start + range", async () => {
      const identityId = await newIdentity("reader");
      const start = "2026-11-23T16:31:52.178Z";
      const res = await add(identityId, {
        roles: [
          { role: "member" },
          {
            role: "secret-reader",
            isTemporary: true,
            temporaryMode: "relative",
            temporaryRange: "1h",
            temporaryAccessStartTime: start,
          },
        ],
      });
      expect(res.status).toBe(200);
      const roles = (await get(identityId)).roles;
      expect(roles.map((r) => r.role)).toEqual(["member", "custom"]);
      expect(roles[1]).toMatchObject({
        customRoleId: secretReaderId,
        customRoleSlug: "secret-reader",
        customRoleName: "Secret Reader (dev)",
        isTemporary: true,
        temporaryMode: "relative",
        temporaryRange: "1h",
        temporaryAccessStartTime: start,
        temporaryAccessEndTime: "2026-11-23T17:31:52.178Z",
      });
    });

    it("reads ranges as ms does: 2 days, 30m, plain milliseconds, and a start with an offset", async () => {
      const identityId = await newIdentity("ranges");
      const res = await add(identityId, {
        roles: [
          {
            role: "viewer",
            isTemporary: true,
            temporaryRange: "2 days",
            temporaryAccessStartTime: "2026-01-01T00:00:00Z",
          },
          {
            role: "member",
            isTemporary: true,
            temporaryRange: "30m",
            temporaryAccessStartTime: "2026-01-01T02:00:00+02:00",
          },
          {
            role: "no-access",
            isTemporary: true,
            temporaryRange: "60000",
            temporaryAccessStartTime: "2026-01-01T00:00:00Z",
          },
        ],
      });
      expect(res.status).toBe(200);
      const ends = Object.fromEntries((await get(identityId)).roles.map((r) => [r.role, r.temporaryAccessEndTime]));
      expect(ends).toEqual({
        viewer: "2026-01-03T00:00:00.000Z",
        member: "2026-01-01T00:30:00.000Z",
        "no-access": "2026-01-01T00:01:00.000Z",
      });
    });

    it("replaces the whole role set on update and answers the stored rows", async () => {
      const identityId = await newIdentity("rotating");
      await add(identityId, { roles: [{ role: "viewer" }, { role: "member" }] });
      const membershipId = (await get(identityId)).id;
      const start = "2026-11-23T10:00:00.000Z";
      const res = await update(identityId, [
        { role: "member", isTemporary: false },
        {
          role: "secret-reader",
          isTemporary: true,
          temporaryMode: "relative",
          temporaryRange: "7d",
          temporaryAccessStartTime: start,
        },
      ]);
      expect(res.status).toBe(200);
      const { roles } = parse.update.parse(res.body);
      expect(roles.map((r) => [r.role, r.customRoleId, r.projectMembershipId])).toEqual([
        ["member", null, membershipId],
        ["custom", secretReaderId, membershipId],
      ]);
      expect(roles[1]?.temporaryAccessEndTime).toBe("2026-11-30T10:00:00.000Z");

      const after = (await get(identityId)).roles;
      expect(after.map((r) => r.role)).toEqual(["member", "custom"]);
      expect(after.map((r) => r.id).sort()).toEqual(roles.map((r) => r.id).sort());
      expect(after.some((r) => r.role === "viewer")).toBe(false);
    });

    it("removes a membership with its additional privileges", async () => {
      const identityId = await newIdentity("leaving");
      const added = parse.add.parse((await add(identityId, { role: "viewer" })).body).identityMembership;
      const now = new Date().toISOString();
      await svc.app.db
        .insertInto("identity_project_privileges")
        .values({
          id: randomUUID(),
          project_membership_id: added.id,
          slug: "extra",
          permissions: "[]",
          temporary_mode: null,
          temporary_range: null,
          temporary_access_start_time: null,
          temporary_access_end_time: null,
          created_at: now,
          updated_at: now,
        })
        .execute();

      const res = await svc.endpoint("identityMemberships.remove", at(identityId));
      expect(res.status).toBe(200);
      expect(parse.remove.parse(res.body).identityMembership).toEqual(added);
      expect((await svc.endpoint("identityMemberships.get", at(identityId))).status).toBe(404);
      const left = await svc.app.db
        .selectFrom("identity_project_privileges")
        .select("id")
        .where("project_membership_id", "=", added.id)
        .execute();
      expect(left).toEqual([]);
      const roleRows = await svc.app.db
        .selectFrom("project_membership_roles")
        .select("id")
        .where("membership_id", "=", added.id)
        .execute();
      expect(roleRows).toEqual([]);
      // Removed, it can be added again.
      expect((await add(identityId, { role: "viewer" })).status).toBe(200);
    });

    it("lists an identity's projects with its roles (identities.listProjectMemberships)", async () => {
      const identityId = await newIdentity("multi-project");
      const other = await seedProject(svc, "Billing");
      await add(identityId, { role: "viewer" });
      expect(
        (await svc.endpoint("identityMemberships.add", { ...at(identityId, other), body: { role: "member" } })).status,
      ).toBe(200);
      const res = await svc.endpoint("identities.listProjectMemberships", { params: { identityId } });
      expect(res.status).toBe(200);
      const { identityMemberships } = parse.ofIdentity.parse(res.body);
      expect(identityMemberships.map((m) => [m.project.name, m.project.type, m.roles.map((r) => r.role)])).toEqual([
        ["Billing", "secret-manager", ["member"]],
        ["Payments", "secret-manager", ["viewer"]],
      ]);
      expect(identityMemberships[0]?.identity).toEqual({
        name: "multi-project",
        id: identityId,
        hasDeleteProtection: false,
        authMethods: [],
      });
    });
  });

  describe("identity memberships: pages", () => {
    let pageProject: string;
    beforeAll(async () => {
      pageProject = await seedProject(svc, "Paged");
      for (const name of ["page-c", "page-a", "page-b", "other_50"]) {
        const identityId = await newIdentity(name);
        const res = await svc.endpoint("identityMemberships.add", {
          ...at(identityId, pageProject),
          body: { role: "viewer" },
        });
        expect(res.status).toBe(200);
      }
    });

    const list = async (query: Record<string, string> = {}) => {
      const res = await svc.endpoint("identityMemberships.list", { params: { projectId: pageProject }, query });
      expect(res.status).toBe(200);
      const body = parse.list.parse(res.body);
      return { names: body.identityMemberships.map((m) => m.identity.name), totalCount: body.totalCount };
    };

    it("lists every member by name with the total (the creator included)", async () => {
      expect(await list()).toEqual({ names: ["admin", "other_50", "page-a", "page-b", "page-c"], totalCount: 5 });
    });

    it("pages with offset and limit, in either direction, and searches by part of the name", async () => {
      expect(await list({ limit: "2" })).toEqual({ names: ["admin", "other_50"], totalCount: 5 });
      expect(await list({ limit: "2", offset: "2" })).toEqual({ names: ["page-a", "page-b"], totalCount: 5 });
      expect(await list({ orderDirection: "desc", limit: "1" })).toEqual({ names: ["page-c"], totalCount: 5 });
      expect(await list({ search: "PAGE", limit: "2", offset: "1" })).toEqual({
        names: ["page-b", "page-c"],
        totalCount: 3,
      });
      // LIKE's wildcards are text.
      expect(await list({ search: "a_e" })).toEqual({ names: [], totalCount: 0 });
    });

    it("refuses a bad page with 422", async () => {
      const bad: Record<string, string>[] = [
        { limit: "0" },
        { limit: "20001" },
        { offset: "-1" },
        { orderDirection: "up" },
      ];
      for (const query of bad) {
        const res = await svc.endpoint("identityMemberships.list", { params: { projectId: pageProject }, query });
        expect(res.status).toBe(422);
      }
    });
  });

  describe("identity memberships: error paths", () => {
    it("refuses a duplicate with 400 Identity is already a member", async () => {
      const identityId = await newIdentity("twice");
      expect((await add(identityId, { role: "viewer" })).status).toBe(200);
      const res = await add(identityId, { role: "member" });
      expect(res.status).toBe(400);
      expect(error(res.body)).toMatchObject({ error: "BadRequest", message: "Identity is already a member" });
    });

    it("answers two simultaneous adds of one identity with one 200 and one 400, never a 500", async () => {
      const identityId = await newIdentity("racing");
      const results = await Promise.all([add(identityId, { role: "viewer" }), add(identityId, { role: "viewer" })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      expect((await get(identityId)).roles).toHaveLength(1);
    });

    it("404s an unknown identity, an identity of another organisation and an unknown project", async () => {
      const otherOrg = randomUUID();
      const stranger = randomUUID();
      const now = new Date().toISOString();
      await insertOrganization(svc.app.db, { id: otherOrg, name: "Other", slug: `other-${kind}` }, now);
      await insertIdentity(
        svc.app.db,
        { id: stranger, orgId: otherOrg, name: "stranger", hasDeleteProtection: false, role: "admin" },
        now,
      );
      for (const identityId of [NO_SUCH_ID, stranger]) {
        const res = await add(identityId, { role: "viewer" });
        expect(res.status).toBe(404);
        expect(error(res.body).error).toBe("NotFound");
      }
      const identityId = await newIdentity("homeless");
      const res = await svc.endpoint("identityMemberships.add", {
        ...at(identityId, NO_SUCH_ID),
        body: { role: "viewer" },
      });
      expect(res.status).toBe(404);
      expect(error(res.body).message).toBe(`Project with ID '${NO_SUCH_ID}' not found`);
    });

    it("404s get, update and remove of an identity that is not a member", async () => {
      const identityId = await newIdentity("outsider");
      expect((await svc.endpoint("identityMemberships.get", at(identityId))).status).toBe(404);
      expect((await update(identityId, [{ role: "viewer" }])).status).toBe(404);
      expect((await svc.endpoint("identityMemberships.remove", at(identityId))).status).toBe(404);
    });

    it("404s a role slug the project does not have, and adds nothing", async () => {
      const identityId = await newIdentity("unknown-role");
      const res = await add(identityId, { roles: [{ role: "viewer" }, { role: "deployer" }] });
      expect(res.status).toBe(404);
      expect(error(res.body).message).toContain('"deployer"');
      expect((await svc.endpoint("identityMemberships.get", at(identityId))).status).toBe(404);
      const other = await seedProject(svc, "Elsewhere");
      await seedCustomRole(svc, other, { slug: "only-there", name: "Only there", permissions: readDev });
      expect((await add(identityId, { roles: [{ role: "only-there" }] })).status).toBe(404);
    });

    it("refuses a temporary role without its range or start with 422 and the reason", async () => {
      const identityId = await newIdentity("no-range");
      const res = await add(identityId, { roles: [{ role: "viewer", isTemporary: true, temporaryMode: "relative" }] });
      expect(res.status).toBe(422);
      const issues = error(res.body).message as unknown as { message: string; path: unknown[] }[];
      expect(issues).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            message: "Temporary mode expects start time and range",
            path: ["roles", 0, "temporaryRange"],
          }),
          expect.objectContaining({ path: ["roles", 0, "temporaryAccessStartTime"] }),
        ]),
      );
    });

    it("refuses a range that is not a duration, or not positive, with 400", async () => {
      const identityId = await newIdentity("bad-range");
      for (const temporaryRange of ["soon", "0", "-1h"]) {
        const res = await add(identityId, {
          roles: [
            { role: "viewer", isTemporary: true, temporaryRange, temporaryAccessStartTime: "2026-01-01T00:00:00Z" },
          ],
        });
        expect(res.status).toBe(400);
        expect(error(res.body).message).toMatch(/temporary range/i);
      }
      const late = await add(identityId, {
        roles: [{ role: "viewer", isTemporary: true, temporaryRange: "1h", temporaryAccessStartTime: "tomorrow" }],
      });
      expect(late.status).toBe(422);
    });

    it("refuses an update with no roles (422) and a bad identity id (422)", async () => {
      const identityId = await newIdentity("empty-update");
      await add(identityId, { role: "viewer" });
      expect((await update(identityId, [])).status).toBe(422);
      const res = await svc.endpoint("identityMemberships.get", { params: { projectId, identityId: "not-a-uuid" } });
      expect(res.status).toBe(422);
    });
  });

  describe("identity memberships: permissions", () => {
    let viewer: { identityId: string; token: string };
    let member: { identityId: string; token: string };
    let outsider: { identityId: string; token: string };

    beforeAll(async () => {
      viewer = await identityWithToken(svc, { name: "perm-viewer" });
      member = await identityWithToken(svc, { name: "perm-member" });
      outsider = await identityWithToken(svc, { name: "perm-outsider" });
      expect((await add(viewer.identityId, { role: "viewer" })).status).toBe(200);
      expect((await add(member.identityId, { role: "member" })).status).toBe(200);
    });

    it("lets a viewer read but not add, change or remove (403 PermissionDenied with its rules)", async () => {
      const list = await svc.endpoint("identityMemberships.list", { params: { projectId } }, { token: viewer.token });
      expect(list.status).toBe(200);
      expect(
        (await svc.endpoint("identityMemberships.get", at(member.identityId), { token: viewer.token })).status,
      ).toBe(200);

      const target = await newIdentity("viewer-target");
      const denied = await add(target, { role: "no-access" }, viewer.token);
      expect(denied.status).toBe(403);
      const body = error(denied.body);
      expect(body).toMatchObject({ error: "PermissionDenied", message: "You are not allowed to create on identity" });
      expect(body.details).toEqual([{ subject: "identity", action: ["read"], inverted: false }]);
      expect((await update(member.identityId, [{ role: "viewer" }], viewer.token)).status).toBe(403);
      expect(
        (await svc.endpoint("identityMemberships.remove", at(member.identityId), { token: viewer.token })).status,
      ).toBe(403);
    });

    it("answers a non-member 403 ProjectMembershipNotFound", async () => {
      const res = await svc.endpoint("identityMemberships.list", { params: { projectId } }, { token: outsider.token });
      expect(res.status).toBe(403);
      expect(error(res.body).error).toBe("ProjectMembershipNotFound");
    });

    it("lets a member grant what it holds, not more (403 PermissionBoundaryError)", async () => {
      const target = await newIdentity("member-target");
      const tooMuch = await add(target, { role: "admin" }, member.token);
      expect(tooMuch.status).toBe(403);
      const body = error(tooMuch.body);
      expect(body.error).toBe("PermissionBoundaryError");
      expect((body.details as { missingPermissions: unknown[] }).missingPermissions).toEqual(
        expect.arrayContaining([{ subject: "workspace", action: "delete" }]),
      );
      expect((await svc.endpoint("identityMemberships.get", at(target))).status).toBe(404);

      expect((await add(target, { roles: [{ role: "viewer" }, { role: "secret-reader" }] }, member.token)).status).toBe(
        200,
      );
      expect((await update(target, [{ role: "admin" }], member.token)).status).toBe(403);
      expect((await update(target, [{ role: "member" }], member.token)).status).toBe(200);
    });

    it("does not let a member change or remove an admin", async () => {
      const admin = await newIdentity("project-admin");
      expect((await add(admin, { role: "admin" })).status).toBe(200);
      const demote = await update(admin, [{ role: "no-access" }], member.token);
      expect(demote.status).toBe(403);
      expect(error(demote.body).error).toBe("PermissionBoundaryError");
      const remove = await svc.endpoint("identityMemberships.remove", at(admin), { token: member.token });
      expect(remove.status).toBe(403);
      expect((await get(admin)).roles.map((r) => r.role)).toEqual(["admin"]);
    });

    it("counts a temporary role until its end only: start + range in the past grants nothing", async () => {
      const expired = await identityWithToken(svc, { name: "perm-expired" });
      const current = await identityWithToken(svc, { name: "perm-current" });
      const temporary = (temporaryAccessStartTime: string) => ({
        roles: [
          {
            role: "viewer",
            isTemporary: true,
            temporaryMode: "relative",
            temporaryRange: "1h",
            temporaryAccessStartTime,
          },
        ],
      });
      expect((await add(expired.identityId, temporary("2020-01-01T00:00:00.000Z"))).status).toBe(200);
      expect((await add(current.identityId, temporary(new Date().toISOString()))).status).toBe(200);
      const listAs = (token: string) => svc.endpoint("identityMemberships.list", { params: { projectId } }, { token });
      expect((await listAs(current.token)).status).toBe(200);
      const denied = await listAs(expired.token);
      expect(denied.status).toBe(403);
      expect(error(denied.body).error).toBe("PermissionDenied");
      // The expired role stays stored, with its end, and a new role set brings access back.
      expect((await get(expired.identityId)).roles[0]?.temporaryAccessEndTime).toBe("2020-01-01T01:00:00.000Z");
      expect((await update(expired.identityId, [{ role: "viewer" }])).status).toBe(200);
      expect((await listAs(expired.token)).status).toBe(200);
    });
  });
});
