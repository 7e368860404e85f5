import { endpoints, ErrorBodySchema } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject, memberWithRoles } from "../test/project-fixtures.ts";

const parse = {
  list: endpoints["projects.list"].response,
  get: endpoints["projects.get"].response,
  update: endpoints["projects.update"].response,
  remove: endpoints["projects.delete"].response,
  env: endpoints["environments.create"].response,
};

const errorOf = (body: unknown) => ErrorBodySchema.parse(body);

describeEachDatabase("projects", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind });
  });
  afterAll(async () => svc?.close());

  const get = (workspaceId: string, token?: string) =>
    svc.endpoint("projects.get", { params: { workspaceId } }, token === undefined ? {} : { token });

  describe("happy paths", () => {
    it("creates a project with the default environments, Infisical's defaults, and its creator as admin", async () => {
      const project = await createProject(svc, {
        projectName: "Payments",
        slug: "payments-eu",
        projectDescription: "EU",
      });
      expect(project).toMatchObject({
        name: "Payments",
        slug: "payments-eu",
        description: "EU",
        type: "secret-manager",
        orgId: svc.info.orgId,
        version: 3,
        pitVersionLimit: 10,
        hasDeleteProtection: false,
        secretSharing: true,
        showSnapshotsLegacy: false,
        autoCapitalization: false,
        kmsSecretManagerKeyId: null,
      });
      expect(project._id).toBe(project.id);
      expect(project.environments.map(({ name, slug }) => ({ name, slug }))).toEqual([
        { name: "Development", slug: "dev" },
        { name: "Staging", slug: "staging" },
        { name: "Production", slug: "prod" },
      ]);
      const positions = await svc.app.db
        .selectFrom("project_environments")
        .select(["slug", "position"])
        .where("project_id", "=", project.id)
        .orderBy("position")
        .execute();
      expect(positions).toEqual([
        { slug: "dev", position: 1 },
        { slug: "staging", position: 2 },
        { slug: "prod", position: 3 },
      ]);
      const roles = await svc.app.db
        .selectFrom("project_memberships as m")
        .innerJoin("project_membership_roles as r", "r.membership_id", "m.id")
        .select(["m.identity_id", "m.user_id", "r.role", "r.custom_role_id", "r.is_temporary"])
        .where("m.project_id", "=", project.id)
        .execute();
      expect(roles).toEqual([
        { identity_id: svc.info.adminIdentityId, user_id: null, role: "admin", custom_role_id: null, is_temporary: 0 },
      ]);
    });

    it("makes a slug from the name and four random characters when none is given", async () => {
      const res = await svc.endpoint("projects.create", { body: { projectName: "Café Backend!" } });
      expect(res.status).toBe(200);
      const { project } = endpoints["projects.create"].response.parse(res.body);
      expect(project.slug).toMatch(/^cafe-backend-[a-z0-9]{4}$/);
    });

    it("creates no environments when asked not to, and keeps delete protection and type", async () => {
      const project = await createProject(svc, {
        shouldCreateDefaultEnvs: false,
        hasDeleteProtection: true,
        type: "kms",
      });
      expect(project.environments).toEqual([]);
      expect(project.hasDeleteProtection).toBe(true);
      expect(project.type).toBe("kms");
    });

    it("lists only the projects the caller is a member of, and filters by type", async () => {
      const mine = await createProject(svc);
      const other = await identityWithToken(svc, { name: "other-admin", role: "admin" });
      const theirs = await createProject(svc, {}, { token: other.token });

      const listed = parse.list.parse((await svc.endpoint("projects.list")).body).workspaces;
      expect(listed.map((p) => p.id)).toContain(mine.id);
      expect(listed.map((p) => p.id)).not.toContain(theirs.id);
      expect(listed.find((p) => p.id === mine.id)?.environments.map((e) => e.slug)).toEqual(["dev", "staging", "prod"]);

      const theirList = parse.list.parse((await svc.endpoint("projects.list", {}, { token: other.token })).body);
      expect(theirList.workspaces.map((p) => p.id)).toEqual([theirs.id]);

      const kms = parse.list.parse((await svc.endpoint("projects.list", { query: { type: "kms" } })).body).workspaces;
      expect(kms.length).toBeGreaterThan(0);
      expect(kms.every((p) => p.type === "kms")).toBe(true);
    });

    it("gets a project with its environments, for any member", async () => {
      const project = await createProject(svc);
      const viewer = await memberWithRoles(svc, project.id, ["no-access"], "reader-none");
      for (const token of [undefined, viewer.token]) {
        const res = await get(project.id, token);
        expect(res.status).toBe(200);
        const { workspace } = parse.get.parse(res.body);
        expect(workspace.id).toBe(project.id);
        expect(workspace.environments).toEqual(project.environments);
      }
    });

    it("updates name, slug, description and settings", async () => {
      const project = await createProject(svc);
      const res = await svc.endpoint("projects.update", {
        params: { workspaceId: project.id },
        body: {
          name: "Renamed",
          slug: `renamed_${project.slug}`,
          description: "now described",
          autoCapitalization: true,
          hasDeleteProtection: true,
          pitVersionLimit: 25,
        },
      });
      expect(res.status).toBe(200);
      const { workspace } = parse.update.parse(res.body);
      expect(workspace).toMatchObject({
        name: "Renamed",
        slug: `renamed_${project.slug}`,
        description: "now described",
        autoCapitalization: true,
        hasDeleteProtection: true,
        pitVersionLimit: 25,
      });
      expect(workspace).not.toHaveProperty("environments");
      expect(Date.parse(workspace.updatedAt)).toBeGreaterThanOrEqual(Date.parse(project.updatedAt));
      expect(parse.get.parse((await get(project.id)).body).workspace.name).toBe("Renamed");
    });

    it("deletes a project with everything in it", async () => {
      const project = await createProject(svc);
      const res = await svc.endpoint("projects.delete", { params: { workspaceId: project.id } });
      expect(res.status).toBe(200);
      expect(parse.remove.parse(res.body).workspace.id).toBe(project.id);
      expect((await get(project.id)).status).toBe(404);
      const left = await svc.app.db
        .selectFrom("project_memberships")
        .select("id")
        .where("project_id", "=", project.id)
        .execute();
      expect(left).toEqual([]);
    });

    it("deletes a project whose custom role a member holds, with the role and the membership", async () => {
      const project = await createProject(svc);
      const role = await svc.endpoint("projectRoles.create", {
        params: { projectId: project.id },
        body: { slug: "held", name: "Held", permissions: [{ subject: "secrets", action: ["read"] }] },
      });
      expect(role.status).toBe(200);
      await memberWithRoles(svc, project.id, ["held"], "held-member");
      const res = await svc.endpoint("projects.delete", { params: { workspaceId: project.id } });
      expect(res.status).toBe(200);
      const roles = await svc.app.db
        .selectFrom("project_roles")
        .select("id")
        .where("project_id", "=", project.id)
        .execute();
      expect(roles).toEqual([]);
    });
  });

  describe("error paths", () => {
    it("refuses bad bodies with 422", async () => {
      for (const body of [
        {},
        { projectName: "" },
        { projectName: "x", slug: "abc" },
        { projectName: "x", slug: "Bad_Slug" },
        { projectName: "x", type: "nope" },
      ]) {
        const res = await svc.endpoint("projects.create", { body });
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(errorOf(res.body).error).toBe("ValidationFailure");
      }
    });

    it("refuses a slug the organisation already uses with 400", async () => {
      const project = await createProject(svc);
      const res = await svc.endpoint("projects.create", { body: { projectName: "Again", slug: project.slug } });
      expect(res.status).toBe(400);
      expect(errorOf(res.body)).toMatchObject({
        error: "BadRequest",
        message: `A project with the slug "${project.slug}" already exists in your organization. Please choose a different name or slug.`,
      });
    });

    it("refuses project creation to an identity without the organisation permission, as recorded (148)", async () => {
      const member = await identityWithToken(svc, { name: "org-no-access", role: "no-access" });
      const res = await svc.endpoint("projects.create", { body: { projectName: "Nope" } }, { token: member.token });
      expect(res.status).toBe(403);
      expect(errorOf(res.body)).toMatchObject({
        error: "ForbiddenError",
        message: "You don't have permission to create a project",
      });
    });

    it("answers an unknown project with 404 and a non-member with 403", async () => {
      const missing = await get("8b1f8a52-5a0b-4b68-9f0e-5c1f1d3b2a10");
      expect(missing.status).toBe(404);
      expect(errorOf(missing.body).error).toBe("NotFound");
      const project = await createProject(svc);
      const outsider = await identityWithToken(svc, { name: "outsider", role: "member" });
      const res = await get(project.id, outsider.token);
      expect(res.status).toBe(403);
      expect(errorOf(res.body).error).toBe("ProjectMembershipNotFound");
    });

    it("refuses an update to a taken slug (400), a bad slug (422), and a viewer (403)", async () => {
      const a = await createProject(svc);
      const b = await createProject(svc);
      const taken = await svc.endpoint("projects.update", { params: { workspaceId: a.id }, body: { slug: b.slug } });
      expect(taken.status).toBe(400);
      expect(errorOf(taken.body).message).toContain(b.slug);
      const bad = await svc.endpoint("projects.update", { params: { workspaceId: a.id }, body: { slug: "-bad-" } });
      expect(bad.status).toBe(422);
      const viewer = await memberWithRoles(svc, a.id, ["viewer"], "viewer-up");
      const denied = await svc.endpoint(
        "projects.update",
        { params: { workspaceId: a.id }, body: { name: "x" } },
        { token: viewer.token },
      );
      expect(denied.status).toBe(403);
      expect(errorOf(denied.body)).toMatchObject({ error: "PermissionDenied" });
      expect(errorOf(denied.body).details).toEqual(
        expect.arrayContaining([expect.objectContaining({ subject: "settings" })]),
      );
      const missing = await svc.endpoint("projects.update", {
        params: { workspaceId: "8b1f8a52-5a0b-4b68-9f0e-5c1f1d3b2a10" },
        body: { name: "x" },
      });
      expect(missing.status).toBe(404);
    });

    it("refuses to delete while delete protection is on, and to a member without workspace:delete", async () => {
      const project = await createProject(svc, { hasDeleteProtection: true });
      const res = await svc.endpoint("projects.delete", { params: { workspaceId: project.id } });
      expect(res.status).toBe(403);
      expect(errorOf(res.body)).toMatchObject({
        error: "ForbiddenError",
        message: "Project delete protection is enabled",
      });
      expect((await get(project.id)).status).toBe(200);

      const plain = await createProject(svc);
      const member = await memberWithRoles(svc, plain.id, ["member"], "member-del");
      const denied = await svc.endpoint(
        "projects.delete",
        { params: { workspaceId: plain.id } },
        { token: member.token },
      );
      expect(denied.status).toBe(403);
      expect(errorOf(denied.body).error).toBe("PermissionDenied");
      expect((await get(plain.id)).status).toBe(200);
    });
  });
});

describeEachDatabase("environments", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind });
  });
  afterAll(async () => svc?.close());

  const order = async (projectId: string) =>
    (
      await svc.app.db
        .selectFrom("project_environments")
        .select(["slug", "position"])
        .where("project_id", "=", projectId)
        .orderBy("position")
        .execute()
    ).map((e) => `${e.position}:${e.slug}`);

  const createEnv = (workspaceId: string, body: Record<string, unknown>, token?: string) =>
    svc.endpoint("environments.create", { params: { workspaceId }, body }, token === undefined ? {} : { token });

  it("adds an environment after the last one, or at a given position", async () => {
    const project = await createProject(svc);
    const res = await createEnv(project.id, { name: "QA", slug: "qa" });
    expect(res.status).toBe(200);
    const body = parse.env.parse(res.body);
    expect(body).toMatchObject({
      message: "Successfully created new environment",
      workspace: project.id,
      environment: { name: "QA", slug: "qa", position: 4, projectId: project.id, deleteAfter: null },
    });
    expect((await createEnv(project.id, { name: "Local", slug: "local", position: 1 })).status).toBe(200);
    expect(await order(project.id)).toEqual(["1:local", "2:dev", "3:staging", "4:prod", "5:qa"]);
    const got = parse.get.parse((await svc.endpoint("projects.get", { params: { workspaceId: project.id } })).body);
    expect(got.workspace.environments.map((e) => e.slug)).toEqual(["local", "dev", "staging", "prod", "qa"]);
  });

  it("renames, re-slugs and moves an environment", async () => {
    const project = await createProject(svc);
    const prod = project.environments[2]?.id ?? "";
    const res = await svc.endpoint("environments.update", {
      params: { workspaceId: project.id, id: prod },
      body: { name: "Live", slug: "live", position: 1 },
    });
    expect(res.status).toBe(200);
    expect(parse.env.parse(res.body)).toMatchObject({
      message: "Successfully updated environment",
      environment: { id: prod, name: "Live", slug: "live", position: 1 },
    });
    expect(await order(project.id)).toEqual(["1:live", "2:dev", "3:staging"]);
    const back = await svc.endpoint("environments.update", {
      params: { workspaceId: project.id, id: prod },
      body: { position: 3 },
    });
    expect(back.status).toBe(200);
    expect(await order(project.id)).toEqual(["1:dev", "2:staging", "3:live"]);
  });

  it("deletes an environment and closes the gap", async () => {
    const project = await createProject(svc);
    const dev = project.environments[0]?.id ?? "";
    const res = await svc.endpoint("environments.delete", { params: { workspaceId: project.id, id: dev } });
    expect(res.status).toBe(200);
    expect(parse.env.parse(res.body)).toMatchObject({
      message: "Successfully deleted environment",
      environment: { id: dev, slug: "dev", position: 1 },
    });
    expect(await order(project.id)).toEqual(["1:staging", "2:prod"]);
  });

  it("refuses a duplicate slug (400), a bad body (422) and an unknown environment (404)", async () => {
    const project = await createProject(svc);
    const dup = await createEnv(project.id, { name: "Dev again", slug: "dev" });
    expect(dup.status).toBe(400);
    expect(errorOf(dup.body)).toMatchObject({ error: "BadRequest" });
    const staging = project.environments[1]?.id ?? "";
    const dupUpdate = await svc.endpoint("environments.update", {
      params: { workspaceId: project.id, id: staging },
      body: { slug: "prod" },
    });
    expect(dupUpdate.status).toBe(400);
    for (const body of [
      { name: "x" },
      { name: "x", slug: "Bad Slug" },
      { name: "", slug: "ok" },
      { name: "x", slug: "ok", position: 0 },
    ]) {
      expect((await createEnv(project.id, body)).status, JSON.stringify(body)).toBe(422);
    }
    const unknown = "0f6c9c51-7a4e-4c2b-8f4d-2e1a9b8c7d6e";
    const missing = await svc.endpoint("environments.update", {
      params: { workspaceId: project.id, id: unknown },
      body: { name: "x" },
    });
    expect(missing.status).toBe(404);
    expect(
      (await svc.endpoint("environments.delete", { params: { workspaceId: project.id, id: unknown } })).status,
    ).toBe(404);
    expect(await order(project.id)).toEqual(["1:dev", "2:staging", "3:prod"]);
  });

  it("needs environments permissions: a viewer may not create, edit or delete", async () => {
    const project = await createProject(svc);
    const viewer = await memberWithRoles(svc, project.id, ["viewer"], "env-viewer");
    const id = project.environments[0]?.id ?? "";
    const attempts = [
      await createEnv(project.id, { name: "QA", slug: "qa" }, viewer.token),
      await svc.endpoint(
        "environments.update",
        { params: { workspaceId: project.id, id }, body: { name: "x" } },
        { token: viewer.token },
      ),
      await svc.endpoint("environments.delete", { params: { workspaceId: project.id, id } }, { token: viewer.token }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(errorOf(res.body).error).toBe("PermissionDenied");
    }
    expect(await order(project.id)).toEqual(["1:dev", "2:staging", "3:prod"]);
  });
});
