import { ErrorBodySchema, endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { recordedBody, shapeOf } from "../test/shapes.ts";

const listed = endpoints["tokenAuth.listTokens"].response;
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

describeEachDatabase("token auth: list, rename and revoke tokens", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind });
  });
  afterAll(async () => svc?.close());

  const issue = async (identityId: string, name?: string) => {
    const res = await svc.endpoint("tokenAuth.createToken", {
      params: { identityId },
      body: name === undefined ? {} : { name },
    });
    return endpoints["tokenAuth.createToken"].response.parse(res.body);
  };
  const list = async (identityId: string, query?: Record<string, string>) => {
    const res = await svc.endpoint("tokenAuth.listTokens", { params: { identityId }, ...(query && { query }) });
    expect(res.status).toBe(200);
    return listed.parse(res.body).tokens;
  };

  describe("happy paths", () => {
    it("lists an identity's tokens, most recently updated first, as the recorded server does", async () => {
      const { identityId } = await identityWithToken(svc, { role: "member" });
      // Apart in time, so that the order by last update is decided by the clock alone.
      const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
      await tick();
      const named = await issue(identityId, "deploy-bot");
      await tick();
      const unnamed = await issue(identityId);
      const res = await svc.endpoint("tokenAuth.listTokens", { params: { identityId } });
      expect(res.status).toBe(200);
      expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("014-")));
      const tokens = listed.parse(res.body).tokens;
      expect(tokens).toHaveLength(3);
      expect(tokens.slice(0, 2).map((t) => t.id)).toEqual([unnamed.tokenData?.id, named.tokenData?.id]);
      expect(tokens[1]).toEqual(named.tokenData);
    });

    it("pages with offset and limit", async () => {
      const { identityId } = await identityWithToken(svc, { role: "member" });
      for (const name of ["a", "b", "c"]) await issue(identityId, name);
      const all = await list(identityId);
      expect(all).toHaveLength(4);
      expect(await list(identityId, { offset: "1", limit: "2" })).toEqual(all.slice(1, 3));
      const bad = await svc.endpoint("tokenAuth.listTokens", { params: { identityId }, query: { limit: "0" } });
      expect(bad.status).toBe(422);
    });

    it("renames a token, answering as the recorded server", async () => {
      const { identityId } = await identityWithToken(svc, { role: "member" });
      const { tokenData } = await issue(identityId, "deploy-bot");
      const res = await svc.endpoint("tokenAuth.updateToken", {
        params: { tokenId: tokenData?.id ?? "" },
        body: { name: "deploy-bot-renamed" },
      });
      expect(res.status).toBe(200);
      expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("015-")));
      expect(res.body).toMatchObject({ token: { id: tokenData?.id, name: "deploy-bot-renamed" } });
      expect((await list(identityId))[0]).toMatchObject({ id: tokenData?.id, name: "deploy-bot-renamed" });
    });

    it("revokes a token: the recorded answer, and its next request is refused", async () => {
      const { identityId, token } = await identityWithToken(svc, { role: "member" });
      const read = () => svc.endpoint("identities.get", { params: { identityId } }, { token }).then((r) => r.status);
      expect(await read()).toBe(200);
      const [row] = await list(identityId);
      const res = await svc.endpoint("tokenAuth.revokeToken", { params: { tokenId: row?.id ?? "" } });
      expect(res.status).toBe(200);
      expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("016-")));
      expect(res.body).toEqual({ message: "Successfully revoked access token" });
      expect(await read()).toBe(401);
      expect((await list(identityId))[0]).toMatchObject({ id: row?.id, isAccessTokenRevoked: true });
    });
  });

  describe("error paths", () => {
    it("answers 404 to renaming or revoking an unknown token, and to revoking one twice", async () => {
      const renamed = await svc.endpoint("tokenAuth.updateToken", {
        params: { tokenId: UNKNOWN },
        body: { name: "x" },
      });
      expect(renamed.status).toBe(404);
      expect(ErrorBodySchema.parse(renamed.body).error).toBe("NotFound");
      expect((await svc.endpoint("tokenAuth.revokeToken", { params: { tokenId: UNKNOWN } })).status).toBe(404);

      const { identityId } = await identityWithToken(svc, { role: "member" });
      const { tokenData } = await issue(identityId);
      const params = { tokenId: tokenData?.id ?? "" };
      expect((await svc.endpoint("tokenAuth.revokeToken", { params })).status).toBe(200);
      expect((await svc.endpoint("tokenAuth.revokeToken", { params })).status).toBe(404);
    });

    it("does not touch tokens issued by another auth method", async () => {
      const created = await svc.endpoint("identities.create", {
        body: { name: "ua-only", organizationId: svc.info.orgId, role: "member" },
      });
      const identityId = endpoints["identities.create"].response.parse(created.body).identity.id;
      const attached = await svc.endpoint("universalAuth.attach", { params: { identityId }, body: {} });
      const { clientId } = endpoints["universalAuth.attach"].response.parse(attached.body).identityUniversalAuth;
      const secret = await svc.endpoint("universalAuth.createClientSecret", { params: { identityId }, body: {} });
      const { clientSecret } = endpoints["universalAuth.createClientSecret"].response.parse(secret.body);
      const login = await svc.endpoint("universalAuth.login", { body: { clientId, clientSecret } }, { token: null });
      expect(login.status).toBe(200);
      const row = await svc.app.db
        .selectFrom("identity_access_tokens")
        .select("id")
        .where("identity_id", "=", identityId)
        .executeTakeFirstOrThrow();
      expect((await svc.endpoint("tokenAuth.revokeToken", { params: { tokenId: row.id } })).status).toBe(404);
      expect(await list(identityId)).toEqual([]);
    });

    it("lets a member list tokens but not rename or revoke them", async () => {
      const { identityId } = await identityWithToken(svc, { role: "member" });
      const member = await identityWithToken(svc, { name: "member-caller", role: "member" });
      const [row] = await list(identityId);
      const asMember = { token: member.token };
      expect((await svc.endpoint("tokenAuth.listTokens", { params: { identityId } }, asMember)).status).toBe(200);
      const params = { tokenId: row?.id ?? "" };
      expect((await svc.endpoint("tokenAuth.updateToken", { params, body: { name: "x" } }, asMember)).status).toBe(403);
      expect((await svc.endpoint("tokenAuth.revokeToken", { params }, asMember)).status).toBe(403);
    });
  });
});
