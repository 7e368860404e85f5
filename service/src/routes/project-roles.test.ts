import { endpoints, ErrorBodySchema } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject, memberWithRoles } from "../test/project-fixtures.ts";

const parse = {
  create: endpoints["projectRoles.create"].response,
  list: endpoints["projectRoles.list"].response,
  get: endpoints["projectRoles.getBySlug"].response,
  update: endpoints["projectRoles.update"].response,
  remove: endpoints["projectRoles.delete"].response,
};
const errorOf = (body: unknown) => ErrorBodySchema.parse(body);

const readDev = {
  subject: "secrets",
  action: ["read"],
  conditions: { environment: "dev", secretPath: { $glob: "/app/**" } },
};

describeEachDatabase("project roles", (kind) => {
  let svc: TestService;
  let projectId: string;
  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = (await createProject(svc)).id;
  });
  afterAll(async () => svc?.close());

  const create = (body: Record<string, unknown>, token?: string, project = projectId) =>
    svc.endpoint("projectRoles.create", { params: { projectId: project }, body }, token === undefined ? {} : { token });
  const getBySlug = (roleSlug: string, token?: string) =>
    svc.endpoint("projectRoles.getBySlug", { params: { projectId, roleSlug } }, token === undefined ? {} : { token });
  async function createRole(slug: string, permissions: unknown[] = [readDev]) {
    const res = await create({ slug, name: slug.toUpperCase(), permissions });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return parse.create.parse(res.body).role;
  }

  describe("happy paths", () => {
    it("creates a role; rules are stored packed and returned unpacked with action lists", async () => {
      const res = await create({
        slug: "secret-reader",
        name: "Secret reader",
        description: "reads dev",
        permissions: [
          readDev,
          { subject: "environments", action: "read" },
          { subject: "secrets", action: "delete", inverted: true },
        ],
      });
      expect(res.status).toBe(200);
      const { role } = parse.create.parse(res.body);
      expect(role).toMatchObject({ slug: "secret-reader", name: "Secret reader", description: "reads dev", projectId });
      expect(role.permissions).toEqual([
        { ...readDev, inverted: false },
        { subject: "environments", action: ["read"], inverted: false },
        { subject: "secrets", action: ["delete"], inverted: true },
      ]);
      const stored = await svc.app.db
        .selectFrom("project_roles")
        .select("permissions")
        .where("id", "=", role.id)
        .executeTakeFirstOrThrow();
      const packed = JSON.parse(stored.permissions) as unknown[];
      expect(packed).toHaveLength(3);
      for (const rule of packed) expect(Array.isArray(rule)).toBe(true);
      expect(packed[0]).toEqual(["read", "secrets", { environment: "dev", secretPath: { $glob: "/app/**" } }]);
    });

    it("lists the predefined roles first, then custom roles by slug, without their rules", async () => {
      await createRole("zeta");
      await createRole("alpha");
      const first = parse.list.parse((await svc.endpoint("projectRoles.list", { params: { projectId } })).body).roles;
      const slugs = first.map((r) => r.slug);
      expect(slugs.slice(0, 4)).toEqual(["admin", "member", "viewer", "no-access"]);
      const custom = slugs.slice(4);
      expect(custom).toEqual([...custom].sort());
      expect(custom).toEqual(expect.arrayContaining(["alpha", "zeta"]));
      for (const role of first) expect(role).not.toHaveProperty("permissions");
      // Predefined ids are stable per project, so a console can key on them.
      const again = parse.list.parse((await svc.endpoint("projectRoles.list", { params: { projectId } })).body).roles;
      expect(again.map((r) => r.id)).toEqual(first.map((r) => r.id));
      const other = await createProject(svc);
      const otherRoles = parse.list.parse(
        (await svc.endpoint("projectRoles.list", { params: { projectId: other.id } })).body,
      ).roles;
      expect(otherRoles.map((r) => r.slug)).toEqual(["admin", "member", "viewer", "no-access"]);
      expect(otherRoles[0]?.id).not.toBe(first[0]?.id);
    });

    it("gets a custom role and a predefined role by slug, with their rules", async () => {
      await createRole("getter");
      const custom = parse.get.parse((await getBySlug("getter")).body).role;
      expect(custom.permissions).toEqual([{ ...readDev, inverted: false }]);
      const admin = await getBySlug("admin");
      expect(admin.status).toBe(200);
      const { role } = parse.get.parse(admin.body);
      expect(role).toMatchObject({ slug: "admin", name: "Admin", projectId });
      expect(role.permissions).toEqual(
        expect.arrayContaining([{ subject: "role", action: ["read", "create", "edit", "delete"] }]),
      );
      const none = parse.get.parse((await getBySlug("no-access")).body).role;
      expect(none.permissions).toEqual([]);
    });

    it("updates slug, name, description and rules", async () => {
      const role = await createRole("editable");
      const res = await svc.endpoint("projectRoles.update", {
        params: { projectId, roleId: role.id },
        body: {
          slug: "edited",
          name: "Edited",
          description: null,
          permissions: [
            { subject: "secrets", action: ["read", "edit"], conditions: { environment: { $in: ["dev", "staging"] } } },
          ],
        },
      });
      expect(res.status).toBe(200);
      const updated = parse.update.parse(res.body).role;
      expect(updated).toMatchObject({ id: role.id, slug: "edited", name: "Edited", description: null });
      expect(updated.permissions).toEqual([
        {
          subject: "secrets",
          action: ["read", "edit"],
          conditions: { environment: { $in: ["dev", "staging"] } },
          inverted: false,
        },
      ]);
      expect(parse.get.parse((await getBySlug("edited")).body).role.id).toBe(role.id);
      expect((await getBySlug("editable")).status).toBe(404);
      // A name alone leaves the rules as they were.
      const renamed = await svc.endpoint("projectRoles.update", {
        params: { projectId, roleId: role.id },
        body: { name: "Edited again" },
      });
      expect(parse.update.parse(renamed.body).role.permissions).toEqual(updated.permissions);
    });

    it("deletes a role no membership holds", async () => {
      const role = await createRole("doomed");
      const res = await svc.endpoint("projectRoles.delete", { params: { projectId, roleId: role.id } });
      expect(res.status).toBe(200);
      expect(parse.remove.parse(res.body).role).toMatchObject({ id: role.id, slug: "doomed" });
      expect((await getBySlug("doomed")).status).toBe(404);
    });

    it("gives a member exactly what its custom role grants", async () => {
      await createRole("role-admin", [{ subject: "role", action: ["read", "create"] }]);
      const holder = await memberWithRoles(svc, projectId, ["role-admin"], "role-holder");
      expect((await create({ slug: "made-by-holder", name: "x", permissions: [] }, holder.token)).status).toBe(200);
      const made = parse.get.parse((await getBySlug("made-by-holder")).body).role;
      const denied = await svc.endpoint(
        "projectRoles.delete",
        { params: { projectId, roleId: made.id } },
        { token: holder.token },
      );
      expect(denied.status).toBe(403);
      expect(errorOf(denied.body).error).toBe("PermissionDenied");
    });
  });

  describe("error paths", () => {
    it("refuses reserved slugs and bad bodies with 422", async () => {
      for (const slug of ["admin", "member", "viewer", "no-access", "custom"]) {
        const res = await create({ slug, name: "x", permissions: [] });
        expect(res.status, slug).toBe(422);
        expect(errorOf(res.body).error).toBe("ValidationFailure");
      }
      for (const body of [
        { slug: "ok", name: "", permissions: [] },
        { slug: "Not A Slug", name: "x", permissions: [] },
        { slug: "ok", name: "x" },
        { slug: "ok", name: "x", permissions: [{ subject: "nope", action: ["read"] }] },
        { slug: "ok", name: "x", permissions: [{ subject: "secrets", action: ["fly"] }] },
        {
          slug: "ok",
          name: "x",
          permissions: [{ subject: "role", action: ["read"], conditions: { environment: "dev" } }],
        },
      ]) {
        expect((await create(body)).status, JSON.stringify(body)).toBe(422);
      }
      const role = await createRole("reserved-target");
      const rename = await svc.endpoint("projectRoles.update", {
        params: { projectId, roleId: role.id },
        body: { slug: "admin" },
      });
      expect(rename.status).toBe(422);
    });

    it("refuses a slug already used in the project with 400, on create and on update", async () => {
      await createRole("taken");
      const dup = await create({ slug: "taken", name: "x", permissions: [] });
      expect(dup.status).toBe(400);
      expect(errorOf(dup.body)).toMatchObject({ error: "BadRequest" });
      const other = await createRole("other");
      const rename = await svc.endpoint("projectRoles.update", {
        params: { projectId, roleId: other.id },
        body: { slug: "taken" },
      });
      expect(rename.status).toBe(400);
      // The same slug in another project is fine.
      const elsewhere = await createProject(svc);
      expect((await create({ slug: "taken", name: "x", permissions: [] }, undefined, elsewhere.id)).status).toBe(200);
    });

    it("answers unknown roles with 404 and a reserved slug without a predefined role with 400", async () => {
      expect((await getBySlug("no-such-role")).status).toBe(404);
      const reserved = await getBySlug("custom");
      expect(reserved.status).toBe(400);
      expect(errorOf(reserved.body).error).toBe("BadRequest");
      const unknown = "4d3c2b1a-0f9e-4d8c-9b7a-6f5e4d3c2b1a";
      const update = await svc.endpoint("projectRoles.update", {
        params: { projectId, roleId: unknown },
        body: { name: "x" },
      });
      expect(update.status).toBe(404);
      expect((await svc.endpoint("projectRoles.delete", { params: { projectId, roleId: unknown } })).status).toBe(404);
      // A role of another project is not found through this one.
      const elsewhere = await createProject(svc);
      const foreign = parse.create.parse(
        (await create({ slug: "foreign", name: "x", permissions: [] }, undefined, elsewhere.id)).body,
      ).role;
      expect((await svc.endpoint("projectRoles.delete", { params: { projectId, roleId: foreign.id } })).status).toBe(
        404,
      );
    });

    it("refuses to delete a role while a membership holds it", async () => {
      const role = await createRole("in-use");
      await memberWithRoles(svc, projectId, ["in-use"], "in-use-holder");
      const res = await svc.endpoint("projectRoles.delete", { params: { projectId, roleId: role.id } });
      expect(res.status).toBe(400);
      expect(errorOf(res.body).message).toMatch(/assigned to 1 membership/);
      expect((await getBySlug("in-use")).status).toBe(200);
    });

    it("needs role permissions: a viewer reads roles but may not change them; a non-member gets 403", async () => {
      const role = await createRole("viewer-target");
      const viewer = await memberWithRoles(svc, projectId, ["viewer"], "role-viewer");
      expect((await svc.endpoint("projectRoles.list", { params: { projectId } }, { token: viewer.token })).status).toBe(
        200,
      );
      expect((await getBySlug("viewer-target", viewer.token)).status).toBe(200);
      const attempts = [
        await create({ slug: "by-viewer", name: "x", permissions: [] }, viewer.token),
        await svc.endpoint(
          "projectRoles.update",
          { params: { projectId, roleId: role.id }, body: { name: "x" } },
          { token: viewer.token },
        ),
        await svc.endpoint("projectRoles.delete", { params: { projectId, roleId: role.id } }, { token: viewer.token }),
      ];
      for (const res of attempts) {
        expect(res.status).toBe(403);
        expect(errorOf(res.body)).toMatchObject({ error: "PermissionDenied" });
      }
      const noAccess = await memberWithRoles(svc, projectId, ["no-access"], "role-none");
      const list = await svc.endpoint("projectRoles.list", { params: { projectId } }, { token: noAccess.token });
      expect(list.status).toBe(403);
      expect(errorOf(list.body).error).toBe("PermissionDenied");
      const outsider = await identityWithToken(svc, { name: "role-outsider", role: "member" });
      const res = await svc.endpoint("projectRoles.list", { params: { projectId } }, { token: outsider.token });
      expect(res.status).toBe(403);
      expect(errorOf(res.body).error).toBe("ProjectMembershipNotFound");
      const missing = await svc.endpoint("projectRoles.list", {
        params: { projectId: "7c6b5a49-3827-4165-9e4d-3c2b1a0f9e8d" },
      });
      expect(missing.status).toBe(404);
    });
  });
});
