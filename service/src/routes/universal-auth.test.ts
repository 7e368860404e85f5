import { createHash } from "node:crypto";
import { ErrorBodySchema, endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { recordedBody, shapeOf } from "../test/shapes.ts";

const created = endpoints["universalAuth.createClientSecret"].response;
const issued = endpoints["universalAuth.login"].response;

describeEachDatabase("universal auth: client secrets and login", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    // Trace level: the log test below proves that not even the most verbose lines carry a secret.
    svc = await startService({ kind, logLevel: "trace" });
  });
  afterAll(async () => svc?.close());

  /** An identity (org role member, so its tokens may read identities) with universal auth attached. */
  async function uaIdentity(name: string, attach: Record<string, unknown> = {}) {
    const res = await svc.endpoint("identities.create", {
      body: { name, organizationId: svc.info.orgId, role: "member" },
    });
    const identityId = endpoints["identities.create"].response.parse(res.body).identity.id;
    const attached = await svc.endpoint("universalAuth.attach", {
      params: { identityId },
      body: { accessTokenTTL: 1800, accessTokenMaxTTL: 86400, ...attach },
    });
    expect(attached.status).toBe(200);
    const { clientId } = endpoints["universalAuth.attach"].response.parse(attached.body).identityUniversalAuth;
    return { identityId, clientId };
  }

  async function newSecret(identityId: string, body: Record<string, unknown> = {}) {
    const res = await svc.endpoint("universalAuth.createClientSecret", { params: { identityId }, body });
    expect(res.status).toBe(200);
    return created.parse(res.body);
  }

  const login = (clientId: string, clientSecret: string, remoteAddress?: string) =>
    svc.endpoint(
      "universalAuth.login",
      { body: { clientId, clientSecret } },
      { token: null, ...(remoteAddress && { remoteAddress }) },
    );

  describe("client secrets", () => {
    it("creates a secret shown once, stored only as its hash, in the recorded server's shape", async () => {
      const { identityId } = await uaIdentity("ua-create");
      const res = await svc.endpoint("universalAuth.createClientSecret", {
        params: { identityId },
        body: { description: "ci pipeline", numUsesLimit: 0, ttl: 0 },
      });
      expect(res.status).toBe(200);
      expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("022-")));
      const { clientSecret, clientSecretData } = created.parse(res.body);
      expect(clientSecret).toMatch(/^[0-9a-f]{64}$/);
      expect(clientSecretData).toMatchObject({
        description: "ci pipeline",
        clientSecretPrefix: clientSecret.slice(0, 4),
        clientSecretNumUses: 0,
        isClientSecretRevoked: false,
      });
      const rows = await svc.app.db
        .selectFrom("identity_ua_client_secrets")
        .selectAll()
        .where("id", "=", clientSecretData.id)
        .execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(clientSecret);
      expect(rows[0]?.client_secret_hash).toBe(createHash("sha256").update(clientSecret).digest("hex"));
    });

    it("lists, reads and revokes, as the recorded server answers; the list leaves revoked secrets out", async () => {
      const { identityId } = await uaIdentity("ua-list");
      const first = await newSecret(identityId, { description: "first" });
      const second = await newSecret(identityId, { description: "second", numUsesLimit: 3, ttl: 600 });

      const list = await svc.endpoint("universalAuth.listClientSecrets", { params: { identityId } });
      expect(list.status).toBe(200);
      expect(shapeOf(list.body)).toEqual(shapeOf(recordedBody("023-")));
      const listed = endpoints["universalAuth.listClientSecrets"].response.parse(list.body).clientSecretData;
      expect(listed.map((s) => s.id).sort()).toEqual([first.clientSecretData.id, second.clientSecretData.id].sort());

      const params = { identityId, clientSecretId: second.clientSecretData.id };
      const got = await svc.endpoint("universalAuth.getClientSecret", { params });
      expect(got.status).toBe(200);
      expect(shapeOf(got.body)).toEqual(shapeOf(recordedBody("024-")));
      expect(got.body).toEqual({ clientSecretData: second.clientSecretData });

      const revoked = await svc.endpoint("universalAuth.revokeClientSecret", { params });
      expect(revoked.status).toBe(200);
      expect(shapeOf(revoked.body)).toEqual(shapeOf(recordedBody("029-")));
      expect(revoked.body).toMatchObject({
        clientSecretData: { id: params.clientSecretId, isClientSecretRevoked: true },
      });

      const after = endpoints["universalAuth.listClientSecrets"].response.parse(
        (await svc.endpoint("universalAuth.listClientSecrets", { params: { identityId } })).body,
      );
      expect(after.clientSecretData.map((s) => s.id)).toEqual([first.clientSecretData.id]);
      // The record of a revoked secret can still be read.
      expect((await svc.endpoint("universalAuth.getClientSecret", { params })).status).toBe(200);
    });

    it("answers 404 for an unknown secret and for an identity without universal auth", async () => {
      const { identityId } = await uaIdentity("ua-404");
      const unknown = { identityId, clientSecretId: "00000000-0000-4000-8000-000000000000" };
      expect((await svc.endpoint("universalAuth.getClientSecret", { params: unknown })).status).toBe(404);
      expect((await svc.endpoint("universalAuth.revokeClientSecret", { params: unknown })).status).toBe(404);
      const bare = await svc.endpoint("identities.create", { body: { name: "no-ua", organizationId: svc.info.orgId } });
      const bareId = endpoints["identities.create"].response.parse(bare.body).identity.id;
      const res = await svc.endpoint("universalAuth.createClientSecret", { params: { identityId: bareId }, body: {} });
      expect(res.status).toBe(404);
    });

    it("a secret of one identity cannot be read or revoked through another", async () => {
      const owner = await uaIdentity("ua-owner");
      const other = await uaIdentity("ua-other");
      const { clientSecretData } = await newSecret(owner.identityId);
      const params = { identityId: other.identityId, clientSecretId: clientSecretData.id };
      expect((await svc.endpoint("universalAuth.getClientSecret", { params })).status).toBe(404);
      expect((await svc.endpoint("universalAuth.revokeClientSecret", { params })).status).toBe(404);
    });
  });

  describe("login", () => {
    it("signs in without a bearer token and answers as the recorded server; the token works", async () => {
      const { identityId, clientId } = await uaIdentity("ua-login");
      const { clientSecret, clientSecretData } = await newSecret(identityId);
      const res = await login(clientId, clientSecret);
      expect(res.status).toBe(200);
      expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("025-")));
      const body = issued.parse(res.body);
      expect(body).toMatchObject({ expiresIn: 1800, accessTokenMaxTTL: 86400, tokenType: "Bearer" });

      const read = await svc.endpoint("identities.get", { params: { identityId } }, { token: body.accessToken });
      expect(read.status).toBe(200);
      const row = await svc.app.db
        .selectFrom("identity_access_tokens")
        .selectAll()
        .where("identity_id", "=", identityId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        auth_method: "universal-auth",
        identity_ua_client_secret_id: clientSecretData.id,
        access_token_ttl: 1800,
        access_token_max_ttl: 86400,
      });
      const used = await svc.endpoint("universalAuth.getClientSecret", {
        params: { identityId, clientSecretId: clientSecretData.id },
      });
      expect(used.body).toMatchObject({ clientSecretData: { clientSecretNumUses: 1 } });
    });

    it("answers a wrong secret, or a right secret with another client id, with the recorded 401", async () => {
      const { identityId, clientId } = await uaIdentity("ua-wrong");
      const { clientSecret } = await newSecret(identityId);
      const other = await uaIdentity("ua-wrong-other");
      for (const res of [await login(clientId, "f".repeat(64)), await login(other.clientId, clientSecret)]) {
        expect(res.status).toBe(401);
        expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("028-")));
        expect(ErrorBodySchema.parse(res.body)).toMatchObject({
          error: "UnauthorizedError",
          message: "Invalid credentials",
        });
      }
    });

    it("refuses a revoked secret", async () => {
      const { identityId, clientId } = await uaIdentity("ua-revoked");
      const { clientSecret, clientSecretData } = await newSecret(identityId);
      await svc.endpoint("universalAuth.revokeClientSecret", {
        params: { identityId, clientSecretId: clientSecretData.id },
      });
      const res = await login(clientId, clientSecret);
      expect(res.status).toBe(401);
      expect(ErrorBodySchema.parse(res.body).message).toBe("Invalid credentials");
    });

    it("refuses a secret past its TTL, and revokes it", async () => {
      const { identityId, clientId } = await uaIdentity("ua-expired");
      const { clientSecret, clientSecretData } = await newSecret(identityId, { ttl: 60 });
      expect((await login(clientId, clientSecret)).status).toBe(200);
      await svc.app.db
        .updateTable("identity_ua_client_secrets")
        .set({ created_at: new Date(Date.now() - 61_000).toISOString() })
        .where("id", "=", clientSecretData.id)
        .execute();
      const res = await login(clientId, clientSecret);
      expect(res.status).toBe(401);
      expect(ErrorBodySchema.parse(res.body).message).toMatch(/expired client secret/);
      const got = await svc.endpoint("universalAuth.getClientSecret", {
        params: { identityId, clientSecretId: clientSecretData.id },
      });
      expect(got.body).toMatchObject({ clientSecretData: { isClientSecretRevoked: true } });
    });

    it("a secret with a uses limit of 2 admits exactly 2 of 10 concurrent logins", async () => {
      const { identityId, clientId } = await uaIdentity("ua-uses");
      const { clientSecret, clientSecretData } = await newSecret(identityId, { numUsesLimit: 2 });
      const results = await Promise.all(Array.from({ length: 10 }, () => login(clientId, clientSecret)));
      expect(results.filter((r) => r.status === 200)).toHaveLength(2);
      expect(results.filter((r) => r.status === 401)).toHaveLength(8);
      const tokens = await svc.app.db
        .selectFrom("identity_access_tokens")
        .select("id")
        .where("identity_ua_client_secret_id", "=", clientSecretData.id)
        .execute();
      expect(tokens).toHaveLength(2);
      const got = await svc.endpoint("universalAuth.getClientSecret", {
        params: { identityId, clientSecretId: clientSecretData.id },
      });
      expect(got.body).toMatchObject({ clientSecretData: { clientSecretNumUses: 2, isClientSecretRevoked: true } });
    });

    it("checks the caller's address against the client-secret trusted IPs", async () => {
      const { identityId, clientId } = await uaIdentity("ua-ips", {
        clientSecretTrustedIps: [{ ipAddress: "127.0.0.1/32" }],
      });
      const { clientSecret } = await newSecret(identityId);
      const refused = await login(clientId, clientSecret, "127.0.0.2");
      expect(refused.status).toBe(403);
      expect(ErrorBodySchema.parse(refused.body).error).toBe("ForbiddenError");
      expect((await login(clientId, clientSecret, "127.0.0.1")).status).toBe(200);
    });

    it("answers 422 to a login without a secret", async () => {
      const res = await svc.endpoint("universalAuth.login", { body: { clientId: "x" } }, { token: null });
      expect(res.status).toBe(422);
    });

    it("writes neither the client secret nor the issued token to the log", async () => {
      const { identityId, clientId } = await uaIdentity("ua-logs");
      const { clientSecret } = await newSecret(identityId);
      const before = svc.logs().length;
      const ok = issued.parse((await login(clientId, clientSecret)).body);
      expect((await login(clientId, `${clientSecret.slice(0, 60)}0000`)).status).toBe(401);
      await svc.endpoint("accessTokens.renew", { body: { accessToken: ok.accessToken } }, { token: null });
      const lines = svc.logs().slice(before);
      expect(lines).toMatch(/universal-auth\/login/);
      expect(lines).not.toContain(clientSecret);
      expect(lines).not.toContain(clientSecret.slice(0, 60));
      expect(lines).not.toContain(ok.accessToken);

      // Should a body ever be logged (a debug line, an error with its request), redaction hides the credentials.
      svc.app.log.info({ body: { clientId, clientSecret }, req: { body: { accessToken: ok.accessToken } } }, "bodies");
      const logged = svc
        .logs()
        .slice(before)
        .split("\n")
        .find((line) => line.includes('"bodies"'));
      expect(logged).toContain(clientId);
      expect(logged).not.toContain(clientSecret);
      expect(logged).not.toContain(ok.accessToken);
    });
  });
});
