import { type EndpointId, endpoints } from "@keyhold/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { seedProject } from "../test/project-seed.ts";
import { recordedBody, shapesSideBySide } from "../test/shapes.ts";

type Body = Record<string, unknown>;
const privilegeOf = (body: unknown) => endpoints["identityPrivileges.get"].response.parse(body).privilege;

describeEachDatabase("identity additional privileges", (kind) => {
  let svc: TestService;
  let projectId: string;
  let projectSlug: string;
  /** A viewer of the project, the identity privileges are granted to. */
  let viewer: { identityId: string; token: string };
  /** A member of the project (may edit identities, not grant what it does not hold). */
  let member: { identityId: string; token: string };
  /** An identity of the organisation that is not a member of the project. */
  let outsider: { identityId: string; token: string };

  async function join(identityId: string, role: string) {
    const res = await svc.endpoint("identityMemberships.add", {
      params: { projectId, identityId },
      body: { roles: [{ role, isTemporary: false }] },
    });
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = await seedProject(svc, "Privileges");
    const row = await svc.app.db.selectFrom("projects").select("slug").where("id", "=", projectId).executeTakeFirst();
    projectSlug = row?.slug ?? "";
    viewer = await identityWithToken(svc, { name: "priv-viewer" });
    member = await identityWithToken(svc, { name: "priv-member" });
    outsider = await identityWithToken(svc, { name: "priv-outsider" });
    await join(viewer.identityId, "viewer");
    await join(member.identityId, "member");
  });
  afterAll(async () => svc?.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const call = (id: EndpointId, input: Parameters<TestService["endpoint"]>[1], token?: string) =>
    svc.endpoint(id, input, token === undefined ? {} : { token });

  const v2Body = (slug: string, extra: Body = {}): Body => ({
    identityId: viewer.identityId,
    projectId,
    slug,
    permissions: [
      { action: ["read"], subject: "secrets", conditions: { environment: "dev", secretPath: { $glob: "/**" } } },
    ],
    type: { isTemporary: false },
    ...extra,
  });

  async function createV2(slug: string, extra: Body = {}) {
    const res = await call("identityPrivileges.create", { body: v2Body(slug, extra) });
    expect(res.status).toBe(200);
    return privilegeOf(res.body);
  }

  describe("v2 happy paths", () => {
    it("creates a permanent privilege with the rules unpacked, shaped as recorded", async () => {
      const res = await call("identityPrivileges.create", { body: v2Body("v2-priv") });
      expect(res.status).toBe(200);
      const privilege = privilegeOf(res.body);
      expect(privilege).toMatchObject({
        slug: "v2-priv",
        isTemporary: false,
        temporaryMode: null,
        temporaryRange: null,
        temporaryAccessStartTime: null,
        temporaryAccessEndTime: null,
        permissions: [
          {
            subject: "secrets",
            action: ["read"],
            conditions: { environment: "dev", secretPath: { $glob: "/**" } },
            inverted: false,
          },
        ],
      });
      const [ours, recorded] = shapesSideBySide(res.body, recordedBody("096-"));
      expect(ours).toEqual(recorded);
    });

    it("creates a temporary privilege ending at start + range", async () => {
      const start = "2026-11-23T16:31:52.346Z";
      const res = await call("identityPrivileges.create", {
        body: v2Body("v2-temp", {
          permissions: [{ action: ["read", "edit"], subject: "secrets", conditions: { environment: "staging" } }],
          type: { isTemporary: true, temporaryMode: "relative", temporaryRange: "1h", temporaryAccessStartTime: start },
        }),
      });
      expect(res.status).toBe(200);
      expect(privilegeOf(res.body)).toMatchObject({
        isTemporary: true,
        temporaryMode: "relative",
        temporaryRange: "1h",
        temporaryAccessStartTime: start,
        temporaryAccessEndTime: "2026-11-23T17:31:52.346Z",
      });
      const [ours, recorded] = shapesSideBySide(res.body, recordedBody("097-"));
      expect(ours).toEqual(recorded);
    });

    it("gets by id and by slug, shaped as recorded", async () => {
      const made = await createV2("v2-get");
      const byId = await call("identityPrivileges.get", { params: { id: made.id } });
      expect(byId.status).toBe(200);
      expect(privilegeOf(byId.body)).toEqual(made);
      expect(shapesSideBySide(byId.body, recordedBody("098-"))[0]).toEqual(
        shapesSideBySide(byId.body, recordedBody("098-"))[1],
      );

      const bySlug = await call("identityPrivileges.getBySlug", {
        params: { privilegeSlug: "v2-get" },
        query: { identityId: viewer.identityId, projectSlug },
      });
      expect(bySlug.status).toBe(200);
      expect(privilegeOf(bySlug.body)).toEqual(made);
      const [ours, recorded] = shapesSideBySide(bySlug.body, recordedBody("099-"));
      expect(ours).toEqual(recorded);
    });

    it("lists the identity's privileges in the project without their rules, shaped as recorded", async () => {
      const made = await createV2("v2-listed");
      const res = await call("identityPrivileges.list", { query: { identityId: viewer.identityId, projectId } });
      expect(res.status).toBe(200);
      const { privileges } = endpoints["identityPrivileges.list"].response.parse(res.body);
      const listed = privileges.find((p) => p.id === made.id);
      expect(listed?.slug).toBe("v2-listed");
      expect(listed && "permissions" in listed).toBe(false);
      const [ours, recorded] = shapesSideBySide(res.body, recordedBody("100-"));
      expect(ours).toEqual(recorded);
    });

    it("updates slug, rules and type (permanent to temporary and back), shaped as recorded", async () => {
      const made = await createV2("v2-upd");
      const start = "2026-11-23T16:31:52.388Z";
      const res = await call("identityPrivileges.update", {
        params: { id: made.id },
        body: {
          slug: "v2-upd-renamed",
          permissions: [
            {
              action: ["describeSecret", "readValue"],
              subject: "secrets",
              conditions: { environment: { $in: ["dev", "staging"] } },
            },
          ],
          type: { isTemporary: true, temporaryMode: "relative", temporaryRange: "2h", temporaryAccessStartTime: start },
        },
      });
      expect(res.status).toBe(200);
      const updated = privilegeOf(res.body);
      expect(updated).toMatchObject({
        id: made.id,
        slug: "v2-upd-renamed",
        isTemporary: true,
        temporaryAccessEndTime: "2026-11-23T18:31:52.388Z",
        permissions: [
          {
            subject: "secrets",
            action: ["describeSecret", "readValue"],
            conditions: { environment: { $in: ["dev", "staging"] } },
          },
        ],
      });
      const [ours, recorded] = shapesSideBySide(res.body, recordedBody("101-"));
      expect(ours).toEqual(recorded);

      const back = await call("identityPrivileges.update", {
        params: { id: made.id },
        body: { slug: "v2-upd-renamed", type: { isTemporary: false } },
      });
      expect(back.status).toBe(200);
      expect(privilegeOf(back.body)).toMatchObject({
        isTemporary: false,
        temporaryRange: null,
        temporaryAccessEndTime: null,
        permissions: updated.permissions,
      });
    });

    it("deletes, answering the removed privilege, shaped as recorded", async () => {
      const made = await createV2("v2-del", {
        permissions: [{ action: ["read", "edit"], subject: "secrets", conditions: { environment: "staging" } }],
        type: {
          isTemporary: true,
          temporaryMode: "relative",
          temporaryRange: "1h",
          temporaryAccessStartTime: new Date().toISOString(),
        },
      });
      const res = await call("identityPrivileges.delete", { params: { id: made.id } });
      expect(res.status).toBe(200);
      expect(privilegeOf(res.body).id).toBe(made.id);
      const [ours, recorded] = shapesSideBySide(res.body, recordedBody("102-"));
      expect(ours).toEqual(recorded);
      expect((await call("identityPrivileges.get", { params: { id: made.id } })).status).toBe(404);
    });

    it("names a privilege created without a slug", async () => {
      const { slug: _slug, ...body } = v2Body("unused");
      const res = await call("identityPrivileges.create", { body });
      expect(res.status).toBe(200);
      expect(privilegeOf(res.body).slug).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}$/);
    });
  });

  describe("v1 happy paths", () => {
    const v1Target = () => ({ identityId: viewer.identityId, projectSlug });

    it("creates a permanent privilege from v1 rules, back-filled with readValue, shaped as recorded", async () => {
      const res = await call("identityPrivileges.createPermanentV1", {
        body: {
          ...v1Target(),
          slug: "read-dev-secrets",
          permissions: [
            { action: "read", subject: "secrets", conditions: { environment: "dev", secretPath: { $glob: "/**" } } },
          ],
        },
      });
      expect(res.status).toBe(200);
      const privilege = endpoints["identityPrivileges.createPermanentV1"].response.parse(res.body).privilege;
      const conditions = { environment: "dev", secretPath: { $glob: "/**" } };
      expect(privilege.permissions).toEqual([
        { subject: "secrets", action: ["read"], conditions, inverted: false },
        { subject: "secrets", action: ["read", "readValue"], conditions, inverted: false },
      ]);
      expect(privilege.projectMembershipId).toMatch(/^[0-9a-f-]{36}$/);
      const [ours, recorded] = shapesSideBySide(res.body, recordedBody("088-"));
      expect(ours).toEqual(recorded);

      // The v2 view of the same privilege shows the copies v1 hides.
      const v2 = privilegeOf((await call("identityPrivileges.get", { params: { id: privilege.id } })).body);
      expect(v2.permissions.map((r) => r.subject)).toEqual(["secrets", "secrets", "secret-imports", "dynamic-secrets"]);
    });

    it("creates one rule per action of privilegePermission, shaped as recorded", async () => {
      const res = await call("identityPrivileges.createPermanentV1", {
        body: {
          ...v1Target(),
          privilegePermission: {
            actions: ["read", "edit"],
            subject: "secrets",
            conditions: { environment: "staging", secretPath: { $glob: "/app/**" } },
          },
        },
      });
      expect(res.status).toBe(200);
      const privilege = endpoints["identityPrivileges.createPermanentV1"].response.parse(res.body).privilege;
      expect(privilege.permissions.map((r) => r.action)).toEqual([["read"], ["edit"], ["read", "readValue"], ["edit"]]);
      const [ours, recorded] = shapesSideBySide(res.body, recordedBody("089-"));
      expect(ours).toEqual(recorded);
    });

    it("creates a temporary privilege, shaped as recorded", async () => {
      const start = "2026-11-23T16:31:52.255Z";
      const res = await call("identityPrivileges.createTemporaryV1", {
        body: {
          ...v1Target(),
          slug: "temp-prod-read",
          privilegePermission: {
            actions: ["read"],
            subject: "secrets",
            conditions: { environment: "prod", secretPath: { $glob: "/" } },
          },
          temporaryMode: "relative",
          temporaryRange: "1h",
          temporaryAccessStartTime: start,
        },
      });
      expect(res.status).toBe(200);
      expect(privilegeOf(res.body)).toMatchObject({
        isTemporary: true,
        temporaryRange: "1h",
        temporaryAccessEndTime: "2026-11-23T17:31:52.255Z",
      });
      const [ours, recorded] = shapesSideBySide(res.body, recordedBody("090-"));
      expect(ours).toEqual(recorded);
    });

    it("lists and gets by slug with rules, updates and deletes by slugs, shaped as recorded", async () => {
      const list = await call("identityPrivileges.listV1", { query: v1Target() });
      expect(list.status).toBe(200);
      const { privileges } = endpoints["identityPrivileges.listV1"].response.parse(list.body);
      expect(privileges.map((p) => p.slug)).toContain("read-dev-secrets");
      expect(shapesSideBySide(list.body, recordedBody("091-"))[0]).toEqual(
        shapesSideBySide(list.body, recordedBody("091-"))[1],
      );

      const got = await call("identityPrivileges.getBySlugV1", {
        params: { privilegeSlug: "read-dev-secrets" },
        query: v1Target(),
      });
      expect(got.status).toBe(200);
      expect(privilegeOf(got.body).slug).toBe("read-dev-secrets");
      const [ours, recorded] = shapesSideBySide(got.body, recordedBody("093-"));
      expect(ours).toEqual(recorded);

      const updated = await call("identityPrivileges.updateV1", {
        body: {
          privilegeSlug: "read-dev-secrets",
          ...v1Target(),
          privilegeDetails: {
            slug: "read-dev-secrets-2",
            permissions: [{ action: "read", subject: "secrets", conditions: { environment: "dev" } }],
          },
        },
      });
      expect(updated.status).toBe(200);
      expect(privilegeOf(updated.body)).toMatchObject({
        slug: "read-dev-secrets-2",
        permissions: [
          { subject: "secrets", action: ["read"], conditions: { environment: "dev" }, inverted: false },
          { subject: "secrets", action: ["read", "readValue"], conditions: { environment: "dev" }, inverted: false },
        ],
      });
      expect(shapesSideBySide(updated.body, recordedBody("094-"))[0]).toEqual(
        shapesSideBySide(updated.body, recordedBody("094-"))[1],
      );

      const removed = await call("identityPrivileges.deleteV1", {
        body: { privilegeSlug: "read-dev-secrets-2", ...v1Target() },
      });
      expect(removed.status).toBe(200);
      expect(privilegeOf(removed.body).slug).toBe("read-dev-secrets-2");
      expect(shapesSideBySide(removed.body, recordedBody("095-"))[0]).toEqual(
        shapesSideBySide(removed.body, recordedBody("095-"))[1],
      );
      const gone = await call("identityPrivileges.getBySlugV1", {
        params: { privilegeSlug: "read-dev-secrets-2" },
        query: v1Target(),
      });
      expect(gone.status).toBe(404);
    });
  });

  describe("error paths", () => {
    const expectError = (res: { status: number; body: unknown }, status: number, error: string, message?: RegExp) => {
      expect(res.status).toBe(status);
      const body = res.body as { error: string; message: string };
      expect(body.error).toBe(error);
      if (message) expect(body.message).toMatch(message);
    };

    it("404 for an unknown privilege id, shaped as recorded", async () => {
      const res = await call("identityPrivileges.get", { params: { id: "00000000-0000-4000-8000-000000000000" } });
      expectError(res, 404, "NotFound", /Privilege with id 00000000-0000-4000-8000-000000000000 not found/);
      const [ours, recorded] = shapesSideBySide(res.body, recordedBody("103-"));
      expect(ours).toEqual(recorded);
      for (const id of ["identityPrivileges.update", "identityPrivileges.delete"] as const) {
        const other = await call(id, {
          params: { id: "00000000-0000-4000-8000-000000000000" },
          ...(id === "identityPrivileges.update" && { body: { slug: "x", type: { isTemporary: false } } }),
        });
        expect(other.status).toBe(404);
      }
    });

    it("404 for a project that is not in the organisation, by id or slug", async () => {
      const res = await call("identityPrivileges.create", {
        body: v2Body("nowhere", { projectId: "00000000-0000-4000-8000-000000000000" }),
      });
      expectError(res, 404, "NotFound", /Project with ID/);
      const v1 = await call("identityPrivileges.listV1", {
        query: { identityId: viewer.identityId, projectSlug: "no-such-project" },
      });
      expectError(v1, 404, "NotFound", /no-such-project/);
    });

    it("404 when the identity is not a member of the project", async () => {
      const res = await call("identityPrivileges.create", {
        body: v2Body("not-member", { identityId: outsider.identityId }),
      });
      expectError(res, 404, "NotFound", new RegExp(`Project membership for identity ${outsider.identityId} not found`));
    });

    it("404 for an unknown slug", async () => {
      const res = await call("identityPrivileges.getBySlug", {
        params: { privilegeSlug: "never-made" },
        query: { identityId: viewer.identityId, projectSlug },
      });
      expectError(res, 404, "NotFound");
    });

    it("400 for a slug the identity already has in the project, on create and on rename", async () => {
      await createV2("dup-slug");
      expectError(
        await call("identityPrivileges.create", { body: v2Body("dup-slug") }),
        400,
        "BadRequest",
        /dup-slug exists/,
      );
      const other = await createV2("dup-other");
      const rename = await call("identityPrivileges.update", {
        params: { id: other.id },
        body: { slug: "dup-slug", type: { isTemporary: false } },
      });
      expectError(rename, 400, "BadRequest", /dup-slug exists/);
    });

    it("400 for a temporary range that is not a positive duration", async () => {
      for (const temporaryRange of ["soon", "0", "-1h"]) {
        const res = await call("identityPrivileges.create", {
          body: v2Body(`bad-range-${temporaryRange.length}`, {
            type: {
              isTemporary: true,
              temporaryMode: "relative",
              temporaryRange,
              temporaryAccessStartTime: new Date().toISOString(),
            },
          }),
        });
        expectError(res, 400, "BadRequest");
      }
    });

    it("400 for a secrets rule mixing the legacy read with readValue", async () => {
      const res = await call("identityPrivileges.create", {
        body: v2Body("mixed", { permissions: [{ action: ["read", "readValue"], subject: "secrets" }] }),
      });
      expectError(res, 400, "BadRequest", /legacy "read"/);
    });

    it("400 when v1 update makes a privilege temporary without range and start", async () => {
      await call("identityPrivileges.createPermanentV1", {
        body: {
          identityId: viewer.identityId,
          projectSlug,
          slug: "v1-to-temp",
          permissions: [{ action: "read", subject: "secrets" }],
        },
      });
      const res = await call("identityPrivileges.updateV1", {
        body: {
          privilegeSlug: "v1-to-temp",
          identityId: viewer.identityId,
          projectSlug,
          privilegeDetails: { isTemporary: true },
        },
      });
      expectError(res, 400, "BadRequest", /expects start time and range/);
    });

    it("422 for rules naming an unknown subject or an action of another subject, or a v1 body without rules", async () => {
      for (const permissions of [
        [{ action: ["read"], subject: "nothing" }],
        [{ action: ["lease"], subject: "secrets" }],
      ]) {
        expectError(
          await call("identityPrivileges.create", { body: v2Body("bad-rule", { permissions }) }),
          422,
          "ValidationFailure",
        );
      }
      const v1 = await call("identityPrivileges.createPermanentV1", {
        body: { identityId: viewer.identityId, projectSlug },
      });
      expectError(v1, 422, "ValidationFailure");
      const temp = await call("identityPrivileges.create", {
        body: v2Body("bad-type", { type: { isTemporary: true, temporaryMode: "relative" } }),
      });
      expectError(temp, 422, "ValidationFailure");
    });

    it("401 without a token", async () => {
      const res = await svc.endpoint(
        "identityPrivileges.list",
        { query: { identityId: viewer.identityId, projectId } },
        { token: null },
      );
      expect(res.status).toBe(401);
    });

    it("403 ProjectMembershipNotFound for a caller that is not a member of the project", async () => {
      const res = await call(
        "identityPrivileges.list",
        { query: { identityId: viewer.identityId, projectId } },
        outsider.token,
      );
      expectError(res, 403, "ProjectMembershipNotFound", /not a member of this project/);
    });

    it("403 PermissionDenied for a viewer, who may read identities but not edit them", async () => {
      const read = await call(
        "identityPrivileges.list",
        { query: { identityId: viewer.identityId, projectId } },
        viewer.token,
      );
      expect(read.status).toBe(200);
      const res = await call("identityPrivileges.create", { body: v2Body("by-viewer") }, viewer.token);
      expectError(res, 403, "PermissionDenied", /edit on identity/);
      expect((res.body as { details: unknown[] }).details).toEqual([
        { subject: "identity", action: ["read"], inverted: false },
      ]);
    });

    it("403 PermissionBoundaryError when a member grants what it does not hold; within its rules it may", async () => {
      const beyond = await call(
        "identityPrivileges.create",
        { body: v2Body("beyond", { permissions: [{ action: ["create"], subject: "role" }] }) },
        member.token,
      );
      expectError(beyond, 403, "PermissionBoundaryError");
      expect((beyond.body as { details: unknown }).details).toEqual({
        missingPermissions: [{ subject: "role", action: "create" }],
      });
      const within = await call("identityPrivileges.create", { body: v2Body("within") }, member.token);
      expect(within.status).toBe(200);
      // Removing is bounded like granting.
      const adminMade = await createV2("admin-made", { permissions: [{ action: ["edit"], subject: "workspace" }] });
      const removal = await call("identityPrivileges.delete", { params: { id: adminMade.id } }, member.token);
      expectError(removal, 403, "PermissionBoundaryError");
    });
  });

  describe("temporary access", () => {
    it("a temporary privilege grants access before its end time and not after", async () => {
      // Close to the real time, so that the callers' access tokens are still within their TTL.
      const start = new Date(Math.floor(Date.now() / 1000) * 1000);
      const at = (ms: number) => new Date(start.getTime() + ms);
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(start);
      const temp = await createV2("temp-edit-identities", {
        permissions: [{ action: ["edit"], subject: "identity" }],
        type: {
          isTemporary: true,
          temporaryMode: "relative",
          temporaryRange: "1h",
          temporaryAccessStartTime: start.toISOString(),
        },
      });
      expect(temp.temporaryAccessEndTime).toBe(at(3_600_000).toISOString());
      // With identity:edit the viewer may grant itself what it already holds (tags:read).
      const grantOwn = (slug: string) =>
        call(
          "identityPrivileges.create",
          { body: v2Body(slug, { permissions: [{ action: ["read"], subject: "tags" }] }) },
          viewer.token,
        );

      vi.setSystemTime(at(3_599_000));
      expect((await grantOwn("while-active")).status).toBe(200);
      const during = await call("projects.getPermissions", { params: { workspaceId: projectId } }, viewer.token);
      expect(JSON.stringify(during.body)).toContain('"edit"');

      vi.setSystemTime(at(3_600_000));
      const after = await grantOwn("after-expiry");
      expect(after.status).toBe(403);
      expect((after.body as { error: string }).error).toBe("PermissionDenied");
      // The expired row is kept, just ignored.
      const stillThere = await call("identityPrivileges.get", { params: { id: temp.id } });
      expect(stillThere.status).toBe(200);
      // Back on the real clock the privilege would count again: remove it for the tests after this one.
      expect((await call("identityPrivileges.delete", { params: { id: temp.id } })).status).toBe(200);
    });
  });

  describe("temporary start times", () => {
    it("a start time in the future does not delay a privilege: only its end counts, as in Infisical", async () => {
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
      await createV2("starts-tomorrow", {
        permissions: [{ action: ["edit"], subject: "kms" }],
        type: {
          isTemporary: true,
          temporaryMode: "relative",
          temporaryRange: "1h",
          temporaryAccessStartTime: tomorrow,
        },
      });
      const res = await call("projects.getPermissions", { params: { workspaceId: projectId } }, viewer.token);
      const { data } = endpoints["projects.getPermissions"].response.parse(res.body);
      expect(data.permissions).toContainEqual({ subject: "kms", action: ["edit"], inverted: false });
    });
  });

  describe("{{identity.id}} in conditions", () => {
    it("applies to the identity holding the rule: a viewer may edit its own privileges only", async () => {
      const own = await createV2("own-identity", {
        permissions: [{ action: ["edit"], subject: "identity", conditions: { identityId: "{{identity.id}}" } }],
      });
      expect(own.permissions[0]?.conditions).toEqual({ identityId: "{{identity.id}}" });
      const grant = (identityId: string, slug: string) =>
        call(
          "identityPrivileges.create",
          { body: v2Body(slug, { identityId, permissions: [{ action: ["read"], subject: "tags" }] }) },
          viewer.token,
        );
      expect((await grant(viewer.identityId, "self-granted")).status).toBe(200);
      const other = await grant(member.identityId, "other-granted");
      expect(other.status).toBe(403);
      expect((other.body as { error: string }).error).toBe("PermissionDenied");

      const res = await call("projects.getPermissions", { params: { workspaceId: projectId } }, viewer.token);
      const { data } = endpoints["projects.getPermissions"].response.parse(res.body);
      expect(data.permissions).toContainEqual({
        subject: "identity",
        action: ["edit"],
        conditions: { identityId: viewer.identityId },
        inverted: false,
      });
    });

    it("422 for any other template", async () => {
      const res = await call("identityPrivileges.create", {
        body: v2Body("other-template", {
          permissions: [{ action: ["read"], subject: "identity", conditions: { identityId: "{{identity.name}}" } }],
        }),
      });
      expect(res.status).toBe(422);
    });
  });

  describe("the caller's permissions", () => {
    it("lists the caller's own active rules and its membership with roles", async () => {
      const res = await call("projects.getPermissions", { params: { workspaceId: projectId } }, member.token);
      expect(res.status).toBe(200);
      const { data } = endpoints["projects.getPermissions"].response.parse(res.body);
      expect(data.membership.identityId).toBe(member.identityId);
      expect(data.membership.projectId).toBe(projectId);
      expect(data.membership.roles.map((r) => r.role)).toEqual(["member"]);
      expect(data.permissions).toContainEqual({ subject: "role", action: ["read"], inverted: false });
      expect(data.permissions.some((r) => r.subject === "workspace")).toBe(false);
    });

    it("404 for an unknown project, 403 for a non-member", async () => {
      const unknown = await call("projects.getPermissions", {
        params: { workspaceId: "00000000-0000-4000-8000-000000000000" },
      });
      expect(unknown.status).toBe(404);
      const outside = await call("projects.getPermissions", { params: { workspaceId: projectId } }, outsider.token);
      expect(outside.status).toBe(403);
      expect((outside.body as { error: string }).error).toBe("ProjectMembershipNotFound");
    });
  });
});
