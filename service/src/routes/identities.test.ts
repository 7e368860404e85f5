import { ErrorBodySchema, endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertIdentity } from "../data/identities.ts";
import { insertOrganization } from "../data/organizations.ts";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";

const parse = {
  list: endpoints["identities.list"].response,
  create: endpoints["identities.create"].response,
  get: endpoints["identities.get"].response,
  update: endpoints["identities.update"].response,
  remove: endpoints["identities.delete"].response,
};

describeEachDatabase("identities", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind });
  });
  afterAll(async () => svc?.close());

  async function create(body: Record<string, unknown>) {
    const res = await svc.endpoint("identities.create", { body: { organizationId: svc.info.orgId, ...body } });
    expect(res.status).toBe(200);
    return parse.create.parse(res.body).identity;
  }

  describe("happy paths", () => {
    it("creates an identity with defaults and metadata", async () => {
      const identity = await create({ name: "ci-runner", metadata: [{ key: "team", value: "platform" }] });
      expect(identity.name).toBe("ci-runner");
      expect(identity.hasDeleteProtection).toBe(false);
      expect(identity.authMethods).toEqual([]);
      expect(identity.metadata?.map(({ key, value }) => ({ key, value }))).toEqual([
        { key: "team", value: "platform" },
      ]);

      const got = parse.get.parse((await svc.endpoint("identities.get", { params: { identityId: identity.id } })).body);
      expect(got.identity.role).toBe("no-access");
      expect(got.identity.orgId).toBe(svc.info.orgId);
      expect(got.identity.identityId).toBe(identity.id);
      expect(got.identity.id).not.toBe(identity.id); // the membership id, not the identity id
      expect(got.identity.identity).toEqual({
        id: identity.id,
        name: "ci-runner",
        hasDeleteProtection: false,
        orgId: svc.info.orgId,
        authMethods: [],
        activeLockoutAuthMethods: [],
      });
    });

    it("gets the bootstrap admin with token auth listed", async () => {
      const res = await svc.endpoint("identities.get", { params: { identityId: svc.info.adminIdentityId } });
      expect(res.status).toBe(200);
      const { identity } = parse.get.parse(res.body);
      expect(identity.role).toBe("admin");
      expect(identity.identity.name).toBe("admin");
      expect(identity.identity.authMethods).toEqual(["token-auth"]);
      expect(identity.identity.hasDeleteProtection).toBe(true);
    });

    it("lists the identities of the organisation with a total count", async () => {
      const made = await create({ name: "listed-one", role: "member" });
      const res = await svc.endpoint("identities.list", { query: { orgId: svc.info.orgId } });
      expect(res.status).toBe(200);
      const { identities, totalCount } = parse.list.parse(res.body);
      expect(totalCount).toBe(identities.length);
      const found = identities.find((m) => m.identityId === made.id);
      expect(found?.role).toBe("member");
      expect(identities.map((m) => m.identity.name)).toContain("admin");
    });

    it("updates name, role and delete protection, and metadata replaces all ([] clears)", async () => {
      const identity = await create({ name: "to-update", metadata: [{ key: "a", value: "1" }] });
      const first = await svc.endpoint("identities.update", {
        params: { identityId: identity.id },
        body: {
          name: "updated",
          role: "member",
          hasDeleteProtection: true,
          metadata: [
            { key: "b", value: "2" },
            { key: "c", value: "3" },
          ],
        },
      });
      expect(first.status).toBe(200);
      const updated = parse.update.parse(first.body).identity;
      expect(updated.name).toBe("updated");
      expect(updated.hasDeleteProtection).toBe(true);
      expect(updated.metadata?.map((m) => m.key)).toEqual(["b", "c"]);

      const got = parse.get.parse((await svc.endpoint("identities.get", { params: { identityId: identity.id } })).body);
      expect(got.identity.role).toBe("member");

      const cleared = await svc.endpoint("identities.update", {
        params: { identityId: identity.id },
        body: { metadata: [] },
      });
      expect(parse.update.parse(cleared.body).identity.metadata).toEqual([]);
      expect(parse.update.parse(cleared.body).identity.name).toBe("updated");
    });

    it("deletes an identity, after which it is not found", async () => {
      const identity = await create({ name: "short-lived" });
      const res = await svc.endpoint("identities.delete", { params: { identityId: identity.id } });
      expect(res.status).toBe(200);
      expect(parse.remove.parse(res.body).identity.id).toBe(identity.id);
      const again = await svc.endpoint("identities.get", { params: { identityId: identity.id } });
      expect(again.status).toBe(404);
    });
  });

  describe("error paths", () => {
    it("refuses to delete an identity with delete protection (400)", async () => {
      const identity = await create({ name: "protected", hasDeleteProtection: true });
      const res = await svc.endpoint("identities.delete", { params: { identityId: identity.id } });
      expect(res.status).toBe(400);
      expect(ErrorBodySchema.parse(res.body).error).toBe("BadRequest");
    });

    it("answers 404 for an unknown identity", async () => {
      const res = await svc.endpoint("identities.get", {
        params: { identityId: "00000000-0000-4000-8000-000000000000" },
      });
      expect(res.status).toBe(404);
      const body = ErrorBodySchema.parse(res.body);
      expect(body.error).toBe("NotFound");
      expect(body.reqId).toMatch(/^req-[A-Za-z0-9]{14}$/);
    });

    it("answers 404 for an identity of another organisation", async () => {
      const now = new Date().toISOString();
      const otherOrg = crypto.randomUUID();
      const stranger = crypto.randomUUID();
      await insertOrganization(svc.app.db, { id: otherOrg, name: "Other", slug: `other-${kind}` }, now);
      await insertIdentity(
        svc.app.db,
        { id: stranger, orgId: otherOrg, name: "stranger", hasDeleteProtection: false, role: "admin" },
        now,
      );

      for (const id of ["identities.get", "identities.delete"] as const) {
        const res = await svc.endpoint(id, { params: { identityId: stranger } });
        expect(res.status).toBe(404);
      }
      const list = await svc.endpoint("identities.list", { query: { orgId: otherOrg } });
      expect(list.status).toBe(403);
      const mine = parse.list.parse((await svc.endpoint("identities.list", { query: { orgId: svc.info.orgId } })).body);
      expect(mine.identities.map((m) => m.identityId)).not.toContain(stranger);
    });

    it("answers 422 with the zod issues for a bad body", async () => {
      const res = await svc.endpoint("identities.create", {
        body: { name: "", organizationId: svc.info.orgId, metadata: [{ key: "k" }] },
      });
      expect(res.status).toBe(422);
      const body = ErrorBodySchema.parse(res.body);
      expect(body.error).toBe("ValidationFailure");
      expect(Array.isArray(body.message)).toBe(true);
      const paths = (body.message as { path: (string | number)[] }[]).map((i) => i.path.join("."));
      expect(paths).toEqual(expect.arrayContaining(["name", "metadata.0.value"]));
    });

    it("answers 422 for a missing orgId on list and a non-uuid identity id", async () => {
      expect((await svc.call("GET", "/api/v1/identities")).status).toBe(422);
      expect((await svc.call("GET", "/api/v1/identities/not-a-uuid")).status).toBe(422);
    });

    it("refuses an unknown org role (400)", async () => {
      const res = await svc.endpoint("identities.create", {
        body: { name: "x", organizationId: svc.info.orgId, role: "owner" },
      });
      expect(res.status).toBe(400);
    });
  });

  describe("permissions", () => {
    it("refuses to change the role of, or delete, the identity making the request", async () => {
      const self = { params: { identityId: svc.info.adminIdentityId } };
      const demote = await svc.endpoint("identities.update", { ...self, body: { role: "no-access" } });
      expect(demote.status).toBe(400);
      expect(ErrorBodySchema.parse(demote.body).message).toMatch(/signed in as/);

      // Delete protection can come off, but the identity still cannot delete itself.
      const unprotect = await svc.endpoint("identities.update", { ...self, body: { hasDeleteProtection: false } });
      expect(unprotect.status).toBe(200);
      const remove = await svc.endpoint("identities.delete", self);
      expect(remove.status).toBe(400);
      await svc.endpoint("identities.update", { ...self, body: { hasDeleteProtection: true } });

      const after = parse.get.parse((await svc.endpoint("identities.get", self)).body);
      expect(after.identity.role).toBe("admin");
    });

    it("denies a no-access identity with 403 PermissionDenied", async () => {
      const { token } = await identityWithToken(svc, { name: "nobody", role: "no-access" });
      const res = await svc.endpoint("identities.list", { query: { orgId: svc.info.orgId } }, { token });
      expect(res.status).toBe(403);
      const body = ErrorBodySchema.parse(res.body);
      expect(body.error).toBe("PermissionDenied");
      expect(body.message).toBe("You are not allowed to read on identity");
      expect(body.details).toEqual([]);
    });

    it("lets a member read but not create, and lists the member's rules in details", async () => {
      const { token } = await identityWithToken(svc, { name: "reader", role: "member" });
      const read = await svc.endpoint(
        "identities.get",
        { params: { identityId: svc.info.adminIdentityId } },
        { token },
      );
      expect(read.status).toBe(200);
      const res = await svc.endpoint(
        "identities.create",
        { body: { name: "nope", organizationId: svc.info.orgId } },
        { token },
      );
      expect(res.status).toBe(403);
      const body = ErrorBodySchema.parse(res.body);
      expect(body.message).toBe("You are not allowed to create on identity");
      expect(body.details).toEqual([{ action: "read", inverted: false, subject: "identity", conditions: null }]);
    });
  });
});
