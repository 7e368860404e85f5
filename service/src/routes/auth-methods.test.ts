import fs from "node:fs";
import path from "node:path";
import { type EndpointId, ErrorBodySchema } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSealer } from "../lib/sealing.ts";
import { identityWithToken } from "../test/fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { recordedBody, shapeOf } from "../test/shapes.ts";

const REVIEWER_JWT = "eyJhbGciOiJSUzI1NiJ9.reviewer-jwt-for-tests.c2lnbmF0dXJl";

/** Each method: the body of a real attach, a field to update, and the recordings to match. */
const methods = [
  {
    key: "tokenAuth",
    envelope: "identityTokenAuth",
    attach: { accessTokenTTL: 3600, accessTokenMaxTTL: 7200 },
    update: { accessTokenTTL: 600 },
    recordedAttach: "006-",
    recordedRevoke: "154-",
  },
  {
    key: "universalAuth",
    envelope: "identityUniversalAuth",
    attach: { accessTokenTTL: 3600, accessTokenMaxTTL: 7200 },
    update: { lockoutThreshold: 5 },
    recordedAttach: "018-",
    recordedRevoke: "030-",
  },
  {
    key: "kubernetesAuth",
    envelope: "identityKubernetesAuth",
    attach: {
      kubernetesHost: "https://127.0.0.1:6443",
      caCert: "",
      tokenReviewerJwt: REVIEWER_JWT,
      allowedNamespaces: "default,apps",
      allowedNames: "app-sa",
      allowedAudience: "",
      accessTokenTTL: 3600,
      accessTokenMaxTTL: 7200,
    },
    update: { allowedNamespaces: "apps" },
    recordedAttach: "032-",
    recordedRevoke: "035-",
  },
  {
    key: "oidcAuth",
    envelope: "identityOidcAuth",
    attach: {
      oidcDiscoveryUrl: "https://issuer.example/.well-known/openid-configuration",
      boundIssuer: "https://token.actions.githubusercontent.com",
      boundAudiences: "https://github.com/acme",
      boundClaims: { repository: "acme/app" },
      boundSubject: "repo:acme/app:ref:refs/heads/main",
      accessTokenTTL: 3600,
      accessTokenMaxTTL: 7200,
    },
    update: { boundSubject: "repo:acme/app:*" },
    recordedAttach: "037-",
    recordedRevoke: "040-",
    // The recording revoked a configuration whose bound claims had been updated to two.
    beforeRevoke: { boundClaims: { repository: "acme/*", environment: "prod" } },
  },
  {
    key: "awsAuth",
    envelope: "identityAwsAuth",
    attach: {
      stsEndpoint: "https://sts.amazonaws.com/",
      allowedPrincipalArns: "arn:aws:iam::123456789012:role/ci-deployer",
      allowedAccountIds: "123456789012",
      accessTokenTTL: 3600,
      accessTokenMaxTTL: 7200,
    },
    update: { allowedAccountIds: "123456789012,210987654321" },
    recordedAttach: "043-",
    recordedRevoke: "046-",
  },
] as const;

describeEachDatabase("auth methods: attach, read, update, revoke", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind });
  });
  afterAll(async () => svc?.close());

  const newIdentity = async (name: string) => {
    const res = await svc.endpoint("identities.create", {
      body: { name, organizationId: svc.info.orgId, role: "member" },
    });
    return (res.body as { identity: { id: string } }).identity.id;
  };
  const call = (id: string, identityId: string, body?: unknown) =>
    svc.endpoint(id as EndpointId, { params: { identityId }, ...(body !== undefined && { body }) });

  describe.each(methods)("$key", (method) => {
    const op = (name: string) => `${method.key}.${name}`;

    it("attaches with the recorded server's exact shape, then refuses a second attach", async () => {
      const identityId = await newIdentity(`${method.key}-attach`);
      const attached = await call(op("attach"), identityId, method.attach);
      expect(attached.status).toBe(200);
      expect(shapeOf(attached.body)).toEqual(shapeOf(recordedBody(method.recordedAttach)));
      const again = await call(op("attach"), identityId, method.attach);
      expect(again.status).toBe(400);
      expect(ErrorBodySchema.parse(again.body).message).toMatch(/already attached/);
    });

    it("reads and updates the configuration", async () => {
      const identityId = await newIdentity(`${method.key}-update`);
      const attached = (await call(op("attach"), identityId, method.attach)).body as Record<string, object>;
      const read = await call(op("get"), identityId);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(attached);

      const updated = await call(op("update"), identityId, method.update);
      expect(updated.status).toBe(200);
      const record = (updated.body as Record<string, Record<string, unknown>>)[method.envelope];
      expect(record).toMatchObject(method.update);
      expect(((await call(op("get"), identityId)).body as Record<string, object>)[method.envelope]).toEqual(record);
    });

    it("refuses a TTL above the max TTL and an invalid trusted IP, and answers 404 when not attached", async () => {
      const identityId = await newIdentity(`${method.key}-refusals`);
      expect((await call(op("get"), identityId)).status).toBe(404);
      expect((await call(op("update"), identityId, method.update)).status).toBe(404);
      expect((await call(op("revoke"), identityId)).status).toBe(404);
      const tooLong = await call(op("attach"), identityId, {
        ...method.attach,
        accessTokenTTL: 9000,
        accessTokenMaxTTL: 60,
      });
      expect([400, 422]).toContain(tooLong.status);
      const badIp = await call(op("attach"), identityId, {
        ...method.attach,
        accessTokenTrustedIps: [{ ipAddress: "10.0.0.300/8" }],
      });
      expect(badIp.status).toBe(400);
      expect(ErrorBodySchema.parse(badIp.body).message).toMatch(/not a valid IPv4 or IPv6/);
      expect((await call(op("get"), identityId)).status).toBe(404);
    });

    it("revokes, answering the removed configuration in the recorded server's shape", async () => {
      const identityId = await newIdentity(`${method.key}-revoke`);
      await call(op("attach"), identityId, method.attach);
      if ("beforeRevoke" in method) await call(op("update"), identityId, method.beforeRevoke);
      const before = (await call(op("get"), identityId)).body as Record<string, object>;
      const revoked = await call(op("revoke"), identityId);
      expect(revoked.status).toBe(200);
      // Kubernetes leaves out caCert and tokenReviewerJwt here, OIDC caCert; the rest is as it was.
      expect(shapeOf(revoked.body)).toEqual(shapeOf(recordedBody(method.recordedRevoke)));
      const record = (revoked.body as Record<string, object>)[method.envelope] ?? {};
      expect(before[method.envelope]).toMatchObject(record);
      expect((await call(op("get"), identityId)).status).toBe(404);
    });
  });

  it("several methods can be attached to one identity, and are listed on it", async () => {
    const identityId = await newIdentity("many-methods");
    for (const method of methods)
      expect((await call(`${method.key}.attach`, identityId, method.attach)).status).toBe(200);
    const res = await svc.endpoint("identities.get", { params: { identityId } });
    expect((res.body as { identity: { identity: { authMethods: string[] } } }).identity.identity.authMethods).toEqual([
      "token-auth",
      "universal-auth",
      "kubernetes-auth",
      "oidc-auth",
      "aws-auth",
    ]);
  });

  it("revoking token auth revokes the tokens it issued", async () => {
    const { identityId, token } = await identityWithToken(svc, { role: "member" });
    const read = () => svc.endpoint("identities.get", { params: { identityId } }, { token }).then((r) => r.status);
    expect(await read()).toBe(200);
    expect((await call("tokenAuth.revoke", identityId)).status).toBe(200);
    expect(await read()).toBe(401);
  });

  it("keeps the Kubernetes reviewer JWT sealed at rest, bound to its row", async () => {
    const k8s = methods[2];
    const first = await newIdentity("k8s-sealed-1");
    const second = await newIdentity("k8s-sealed-2");
    await call("kubernetesAuth.attach", first, k8s.attach);
    await call("kubernetesAuth.attach", second, { ...k8s.attach, tokenReviewerJwt: "another-reviewer-jwt" });
    const rows = await svc.app.db
      .selectFrom("identity_auth_methods")
      .selectAll()
      .where("method", "=", "kubernetes-auth")
      .where("identity_id", "in", [first, second])
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(JSON.stringify(row)).not.toContain(REVIEWER_JWT);
    // A ciphertext opens only in its own row.
    const [a, b] = rows;
    const sealer = createSealer(
      Buffer.from(
        svc.config.rootKey ?? fs.readFileSync(path.join(svc.config.dataDir, "root-key"), "utf8").trim(),
        "base64",
      ),
      "auth-method-credentials",
    );
    expect(() => sealer.open(a?.sealed ?? "", `identity_auth_methods:${a?.id}:sealed`)).not.toThrow();
    expect(() => sealer.open(a?.sealed ?? "", `identity_auth_methods:${b?.id}:sealed`)).toThrow();
  });

  it("clears the reviewer JWT with null and keeps it when left out", async () => {
    const identityId = await newIdentity("k8s-clear");
    await call("kubernetesAuth.attach", identityId, methods[2].attach);
    const kept = await call("kubernetesAuth.update", identityId, { allowedNames: "other-sa" });
    expect(
      (kept.body as { identityKubernetesAuth: { tokenReviewerJwt: unknown } }).identityKubernetesAuth.tokenReviewerJwt,
    ).toBe(REVIEWER_JWT);
    const cleared = await call("kubernetesAuth.update", identityId, { tokenReviewerJwt: null });
    expect(
      (cleared.body as { identityKubernetesAuth: { tokenReviewerJwt: unknown } }).identityKubernetesAuth
        .tokenReviewerJwt,
    ).toBeNull();
  });
});
