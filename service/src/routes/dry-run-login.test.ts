import { endpoints } from "@keyhold/contract";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { type LoopbackPeer, startLoopbackPeer, unusedLoopbackUrl } from "../test/loopback.ts";

const result = endpoints["kubernetesAuth.dryRunLogin"].response;
const REVIEWER_JWT = "stored-reviewer-token";
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const serviceAccountToken = (sub: string, aud: string[] = ["keyhold"]) =>
  `${part({ alg: "RS256" })}.${part({ sub, aud })}.c2ln`;

const issuerKeys = await generateKeyPair("RS256", { extractable: true });
const strangerKeys = await generateKeyPair("RS256", { extractable: true });

describeEachDatabase("dry-run login", (kind) => {
  let svc: TestService;
  let cluster: LoopbackPeer;
  let issuer: LoopbackPeer;
  beforeAll(async () => {
    svc = await startService({ kind });
    // The cluster authenticates any token signed "c2ln" as its subject, for a reviewer it knows.
    cluster = await startLoopbackPeer((request) => {
      if (request.headers.authorization === "Bearer unprivileged-reviewer") {
        return { status: 403, body: { kind: "Status", message: "tokenreviews.authentication.k8s.io is forbidden" } };
      }
      const token = (JSON.parse(request.body) as { spec: { token: string } }).spec.token;
      const [, claims = ""] = token.split(".");
      const { sub, aud } = JSON.parse(Buffer.from(claims, "base64url").toString("utf8")) as {
        sub: string;
        aud: string[];
      };
      return { status: 201, body: { status: { authenticated: true, user: { username: sub }, audiences: aud } } };
    });
    const jwk = { ...(await exportJWK(issuerKeys.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    issuer = await startLoopbackPeer((request) => {
      if (request.url === "/.well-known/openid-configuration") {
        return { body: { issuer: issuer.url, jwks_uri: `${issuer.url}/keys` } };
      }
      return request.url === "/keys" ? { body: { keys: [jwk] } } : { status: 404, body: {} };
    });
  });
  afterAll(async () => {
    await Promise.all([cluster?.close(), issuer?.close()]);
    await svc?.close();
  });

  async function identity(name: string, role = "member") {
    const created = await svc.endpoint("identities.create", {
      body: { name, organizationId: svc.info.orgId, role },
    });
    return endpoints["identities.create"].response.parse(created.body).identity.id;
  }

  async function k8sIdentity(name: string) {
    const identityId = await identity(name);
    const attached = await svc.endpoint("kubernetesAuth.attach", {
      params: { identityId },
      body: {
        kubernetesHost: cluster.url,
        tokenReviewerJwt: REVIEWER_JWT,
        allowedNamespaces: "payments",
        allowedNames: "deployer",
        allowedAudience: "keyhold",
      },
    });
    expect(attached.status).toBe(200);
    return identityId;
  }

  const dryRun = (id: "kubernetesAuth" | "oidcAuth" | "awsAuth", identityId: string, body: object, token?: string) =>
    svc.endpoint(`${id}.dryRunLogin`, { params: { identityId }, body }, token === undefined ? {} : { token });

  const tokenCount = async () =>
    Number(
      (
        await svc.app.db
          .selectFrom("identity_access_tokens")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("tries the stored settings with the given ones in their place, keeping the stored reviewer JWT, and changes nothing", async () => {
    const identityId = await k8sIdentity("dry-k8s");
    const jwt = serviceAccountToken("system:serviceaccount:staging:deployer");
    const before = await tokenCount();

    const stored = await dryRun("kubernetesAuth", identityId, { settings: {}, jwt });
    expect(stored.status).toBe(200);
    const refused = result.parse(stored.body).dryRun;
    expect(refused).toMatchObject({
      accepted: false,
      peer: { ok: true, statusCode: 201 },
      refusal: { statusCode: 401, message: "Access denied: K8s namespace not allowed." },
    });
    expect(refused.checks.map((c) => [c.rule, c.outcome])).toEqual([
      ["service-account", "pass"],
      ["namespace", "fail"],
      ["name", "pass"],
      ["k8s-audience", "pass"],
    ]);
    expect(cluster.received.at(-1)?.headers.authorization).toBe(`Bearer ${REVIEWER_JWT}`);

    const widened = await dryRun("kubernetesAuth", identityId, {
      settings: { allowedNamespaces: "payments, staging" },
      jwt,
    });
    expect(result.parse(widened.body).dryRun).toMatchObject({ accepted: true, peer: { ok: true } });
    expect(result.parse(widened.body).dryRun.refusal).toBeUndefined();
    expect(cluster.received.at(-1)?.headers.authorization).toBe(`Bearer ${REVIEWER_JWT}`);
    // The credential is never echoed.
    expect(JSON.stringify(widened.body)).not.toContain(jwt);

    const otherReviewer = await dryRun("kubernetesAuth", identityId, {
      settings: { tokenReviewerJwt: "unprivileged-reviewer" },
      jwt,
    });
    expect(result.parse(otherReviewer.body).dryRun).toEqual({
      accepted: false,
      peer: {
        ok: false,
        statusCode: 403,
        message:
          "The Kubernetes API refused the token review (HTTP 403): tokenreviews.authentication.k8s.io is forbidden",
      },
      checks: [],
      refusal: {
        statusCode: 401,
        message:
          "The Kubernetes API refused the token review (HTTP 403): tokenreviews.authentication.k8s.io is forbidden",
      },
    });

    // No token issued, the stored settings untouched, the real login still refuses as stored.
    expect(await tokenCount()).toBe(before);
    const record = await svc.endpoint("kubernetesAuth.get", { params: { identityId } });
    expect(record.body).toMatchObject({
      identityKubernetesAuth: { allowedNamespaces: "payments", tokenReviewerJwt: REVIEWER_JWT },
    });
    const login = await svc.endpoint("kubernetesAuth.login", { body: { identityId, jwt } }, { token: null });
    expect(login.status).toBe(401);
  });

  it("records who tried which identity and the outcome, never the credential", async () => {
    const identityId = await k8sIdentity("dry-k8s-audit");
    const jwt = serviceAccountToken("system:serviceaccount:payments:deployer");
    const answer = await dryRun("kubernetesAuth", identityId, {
      settings: { allowedNames: "deployer, ci", tokenReviewerJwt: "given-reviewer-token" },
      jwt,
    });
    expect(result.parse(answer.body).dryRun.accepted).toBe(true);
    await expect
      .poll(async () =>
        (
          await svc.app.db
            .selectFrom("audit_events")
            .select(["event_type", "event_metadata", "actor_id"])
            .where("event_metadata", "like", `%${identityId}%`)
            .execute()
        ).map((row) => row.event_type),
      )
      .toContain("dry-run-login-identity-kubernetes-auth");
    const rows = await svc.app.db
      .selectFrom("audit_events")
      .select(["event_type", "event_metadata", "actor_id"])
      .where("event_metadata", "like", `%${identityId}%`)
      .execute();
    expect(rows.map((row) => row.event_type)).not.toContain("login-identity-kubernetes-auth");
    const event = rows.find((row) => row.event_type === "dry-run-login-identity-kubernetes-auth");
    expect(JSON.parse(event?.event_metadata ?? "{}")).toEqual({
      identityId,
      settingsTried: { allowedNames: "deployer, ci" },
      credentialsTried: ["tokenReviewerJwt"],
      accepted: true,
      peerOk: true,
      peerStatusCode: 201,
    });
    expect(event?.actor_id).toBe(svc.info.adminIdentityId);
    expect(JSON.stringify(rows)).not.toContain(jwt);
    expect(JSON.stringify(rows)).not.toContain(REVIEWER_JWT);
    expect(JSON.stringify(rows)).not.toContain("given-reviewer-token");
  });

  it("tries the given settings alone when the method is not attached, and says which are missing", async () => {
    const identityId = await identity("dry-unattached");
    const jwt = serviceAccountToken("system:serviceaccount:payments:deployer");
    const missing = await dryRun("kubernetesAuth", identityId, { settings: { allowedNamespaces: "payments" }, jwt });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ message: expect.stringContaining("kubernetesHost") });

    const given = await dryRun("kubernetesAuth", identityId, {
      settings: { kubernetesHost: cluster.url, tokenReviewerJwt: "given-reviewer", allowedNamespaces: "platform" },
      jwt,
    });
    expect(result.parse(given.body).dryRun.refusal?.message).toBe("Access denied: K8s namespace not allowed.");
    expect(cluster.received.at(-1)?.headers.authorization).toBe("Bearer given-reviewer");

    const aws = await dryRun("awsAuth", identityId, {
      settings: { stsEndpoint: `${await unusedLoopbackUrl()}/` },
      iamHttpRequestMethod: "POST",
      iamRequestBody: Buffer.from("Action=GetCallerIdentity&Version=2011-06-15").toString("base64"),
      iamRequestHeaders: Buffer.from(
        JSON.stringify({ authorization: "AWS4-HMAC-SHA256 Credential=AKIA/20260115/us-east-1/sts/aws4_request" }),
      ).toString("base64"),
    });
    expect(result.parse(aws.body).dryRun).toMatchObject({
      accepted: false,
      peer: { ok: false, message: "The STS endpoint could not be reached to check the signed request" },
      refusal: { statusCode: 502 },
    });
    expect(result.parse(aws.body).dryRun.peer.statusCode).toBeUndefined();
  });

  it("OIDC: a stranger's signature is the peer's refusal; an expired token fails its rule after the signature", async () => {
    const identityId = await identity("dry-oidc");
    const settings = { oidcDiscoveryUrl: issuer.url, boundIssuer: issuer.url, boundSubject: "repo:acme/*" };
    const sign = (key: typeof issuerKeys.privateKey, exp: number) =>
      new SignJWT({ sub: "repo:acme/app" })
        .setProtectedHeader({ alg: "RS256", kid: "k1" })
        .setIssuer(issuer.url)
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(key);
    const now = Math.floor(Date.now() / 1000);

    const good = await dryRun("oidcAuth", identityId, { settings, jwt: await sign(issuerKeys.privateKey, now + 300) });
    expect(result.parse(good.body).dryRun).toMatchObject({ accepted: true, peer: { ok: true } });

    const stranger = await dryRun("oidcAuth", identityId, {
      settings,
      jwt: await sign(strangerKeys.privateKey, now + 300),
    });
    expect(result.parse(stranger.body).dryRun).toEqual({
      accepted: false,
      peer: { ok: false, message: "Access denied: signature verification failed" },
      checks: [],
      refusal: { statusCode: 401, message: "Access denied: signature verification failed" },
    });

    const expired = result.parse(
      (await dryRun("oidcAuth", identityId, { settings, jwt: await sign(issuerKeys.privateKey, now - 60) })).body,
    ).dryRun;
    expect(expired).toMatchObject({
      accepted: false,
      peer: { ok: true },
      refusal: { statusCode: 401, message: 'Access denied: "exp" claim timestamp check failed' },
    });
    expect(expired.checks.find((c) => c.rule === "expiry")?.outcome).toBe("fail");
    expect(expired.checks.find((c) => c.rule === "subject")?.outcome).toBe("pass");
  });

  it("refuses a body the contract does not allow (422, as every endpoint), an identity elsewhere (404) and a caller without the right to edit it (403)", async () => {
    const identityId = await k8sIdentity("dry-k8s-refusals");
    const noJwt = await dryRun("kubernetesAuth", identityId, { settings: {} });
    expect(noJwt.status).toBe(422);
    expect(noJwt.body).toMatchObject({ message: [expect.objectContaining({ path: ["jwt"] })] });
    const badUrl = await dryRun("kubernetesAuth", identityId, { settings: { kubernetesHost: "not a url" }, jwt: "x" });
    expect(badUrl.status).toBe(422);

    const nobody = await dryRun("kubernetesAuth", "7d1c9a52-0000-4c4f-9a55-0f4b7b2b8a10", { settings: {}, jwt: "x" });
    expect(nobody.status).toBe(404);

    // A member identity's own token: it may read identities but not edit them.
    const memberId = await identity("dry-member");
    await svc.endpoint("tokenAuth.attach", { params: { identityId: memberId }, body: {} });
    const created = await svc.endpoint("tokenAuth.createToken", {
      params: { identityId: memberId },
      body: { name: "t" },
    });
    const memberToken = (created.body as { accessToken: string }).accessToken;
    const before = cluster.received.length;
    const forbidden = await dryRun(
      "kubernetesAuth",
      identityId,
      { settings: {}, jwt: serviceAccountToken("system:serviceaccount:payments:deployer") },
      memberToken,
    );
    expect(forbidden.status).toBe(403);
    expect(cluster.received.length).toBe(before);
  });
});
