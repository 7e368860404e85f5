import { type EndpointId, endpointList, endpoints } from "@keyhold/contract";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditCaller,
  type ExpectedActor,
  everyEventAsText,
  recordedMetadataKeys,
  startCluster,
  startOidcIssuer,
  startSts,
} from "../test/audit-fixtures.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { type LoopbackPeer, startLoopbackPeer } from "../test/loopback.ts";
import { GET_CALLER_IDENTITY, signGetCallerIdentity } from "../test/sigv4.ts";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const REVIEWER_JWT = "reviewer-jwt-credential-5b1e0c";
const SERVICE_ACCOUNT_JWT = "service-account-jwt-credential-9d3a7f";
const AWS_KEY = "AKIAAUDITDEPLOYER";
const AWS_SECRET = "aws-secret-credential-8e2b44";
const INTEGRATION_TOKEN = "ghp_integration-credential-31c0d2";
const INTEGRATION_TOKEN_2 = "ghp_integration-credential-2-7a99e1";
const STREAM_HEADER = "Bearer stream-header-credential-6f1d3b";

/**
 * Drives every endpoint of the contract through the real HTTP server, in the order a person
 * would use them, and checks that each call stores exactly the event its declaration names (type,
 * actor, request id, project, environment, path, key), or none where it declares none. Then reads
 * every stored event as text: no secret value, client secret, token or JWT the calls used is there.
 */
describeEachDatabase("audit events of every endpoint", (kind) => {
  let svc: TestService;
  let issuer: Awaited<ReturnType<typeof startOidcIssuer>>;
  let cluster: LoopbackPeer;
  let sts: LoopbackPeer;
  let receiver: LoopbackPeer;
  let admin: ExpectedActor;
  /** Every value, credential and token the calls sent or received. */
  const secrets = new Set<string>([
    REVIEWER_JWT,
    SERVICE_ACCOUNT_JWT,
    AWS_SECRET,
    INTEGRATION_TOKEN,
    INTEGRATION_TOKEN_2,
  ]);
  secrets.add(STREAM_HEADER);
  const { call, driven } = auditCaller(
    () => svc,
    () => admin,
  );

  beforeAll(async () => {
    svc = await startService({ kind });
    secrets.add(svc.adminToken);
    issuer = await startOidcIssuer();
    cluster = await startCluster(SERVICE_ACCOUNT_JWT);
    sts = await startSts(AWS_KEY, AWS_SECRET);
    receiver = await startLoopbackPeer(() => ({ body: { ok: true } }));
    const me = await svc.endpoint("identities.get", { params: { identityId: svc.info.adminIdentityId } });
    admin = {
      identityId: svc.info.adminIdentityId,
      name: endpoints["identities.get"].response.parse(me.body).identity.identity.name,
      authMethod: "token-auth",
    };
  });
  afterAll(async () => {
    await Promise.all([issuer?.peer.close(), cluster?.close(), sts?.close(), receiver?.close()]);
    await svc?.close();
  });

  const orgId = () => svc.info.orgId;
  let subject: ExpectedActor;
  let projectId: string;
  let projectSlug: string;
  const place = () => ({ workspaceId: projectId, environment: "dev", secretPath: "/" });
  const keep = (...values: string[]) => {
    for (const value of values) secrets.add(value);
  };

  it("identities", async () => {
    const created = await call("identities.create", {
      body: { name: "audit-subject", organizationId: orgId(), role: "member" },
    });
    const identityId = (created.body as { identity: { id: string } }).identity.id;
    expect(created.event?.metadata).toEqual({ name: "audit-subject", identityId, hasDeleteProtection: false });
    await call("identities.list", { query: { orgId: orgId() } });
    await call("identities.search", { body: {} });
    await call("identities.listOrgMemberships", { params: { orgId: orgId() } });
    await call("identities.get", { params: { identityId } });
    await call("identities.listProjectMemberships", { params: { identityId } });
    const renamed = await call("identities.update", { params: { identityId }, body: { name: "audit-subject-2" } });
    expect(renamed.event?.metadata).toMatchObject({ identityId, name: "audit-subject-2" });
    subject = { identityId, name: "audit-subject-2" };

    const doomed = await call("identities.create", {
      body: { name: "audit-doomed", organizationId: orgId(), role: "no-access" },
    });
    const doomedId = (doomed.body as { identity: { id: string } }).identity.id;
    const deleted = await call("identities.delete", { params: { identityId: doomedId } });
    expect(deleted.event?.metadata).toEqual({ identityId: doomedId });
  });

  it("token auth and its tokens", async () => {
    const params = { identityId: subject.identityId };
    const attached = await call("tokenAuth.attach", { params, body: {} });
    expect(attached.event?.type).toBe("add-identity-token-auth");
    expect(attached.event?.metadata).toMatchObject({ identityId: subject.identityId, accessTokenTTL: "2592000" });
    await call("tokenAuth.get", { params });
    const updated = await call("tokenAuth.update", { params, body: { accessTokenTTL: 1200 } });
    expect(updated.event?.metadata).toEqual({ identityId: subject.identityId, accessTokenTTL: "1200" });
    const issued = await call("tokenAuth.createToken", { params, body: { name: "audit-token" } });
    const { accessToken, tokenData } = issued.body as { accessToken: string; tokenData: { id: string } };
    keep(accessToken);
    expect(issued.event?.metadata).toEqual({ identityId: subject.identityId, identityAccessTokenId: tokenData.id });
    await call("tokenAuth.listTokens", { params });
    const renamed = await call("tokenAuth.updateToken", { params: { tokenId: tokenData.id }, body: { name: "t2" } });
    expect(renamed.event?.metadata).toEqual({ identityId: subject.identityId, tokenId: tokenData.id, name: "t2" });
    const revoked = await call("tokenAuth.revokeToken", { params: { tokenId: tokenData.id } });
    expect(revoked.event?.metadata).toEqual({ identityId: subject.identityId, tokenId: tokenData.id });
  });

  it("universal auth: client secrets, sign-ins (refused ones too), renewal and revocation of tokens", async () => {
    const params = { identityId: subject.identityId };
    const attached = await call("universalAuth.attach", {
      params,
      body: { accessTokenTTL: 600, accessTokenMaxTTL: 7200 },
    });
    const clientId = (attached.body as { identityUniversalAuth: { id: string; clientId: string } })
      .identityUniversalAuth.clientId;
    const configId = (attached.body as { identityUniversalAuth: { id: string } }).identityUniversalAuth.id;
    expect(attached.event?.metadata).toMatchObject({ lockoutEnabled: true, lockoutThreshold: 3 });
    await call("universalAuth.get", { params });
    await call("universalAuth.update", { params, body: { lockoutThreshold: 5 } });
    const made = await call("universalAuth.createClientSecret", { params, body: { description: "audit" } });
    const { clientSecret, clientSecretData } = made.body as { clientSecret: string; clientSecretData: { id: string } };
    keep(clientSecret);
    expect(made.event?.metadata).toEqual({
      identityId: subject.identityId,
      clientSecretId: clientSecretData.id,
      clientSecretPrefix: clientSecret.slice(0, 4),
    });
    await call("universalAuth.listClientSecrets", { params });
    await call("universalAuth.getClientSecret", { params: { ...params, clientSecretId: clientSecretData.id } });

    const login = await call("universalAuth.login", { body: { clientId, clientSecret } }, { token: null, as: subject });
    const token = (login.body as { accessToken: string }).accessToken;
    keep(token);
    expect(login.event?.metadata).toEqual({
      identityId: subject.identityId,
      identityUniversalAuthId: configId,
      identityAccessTokenId: decodeJwt(token).identityAccessTokenId,
      clientSecretId: clientSecretData.id,
    });
    const refused = await call(
      "universalAuth.login",
      { body: { clientId, clientSecret: "not-the-secret" } },
      { token: null, status: 401, as: subject },
    );
    expect(refused.event?.metadata).toMatchObject({ identityId: subject.identityId, reasonCode: expect.any(String) });
    expect(refused.event?.metadata.message).toBe((refused.body as { message: string }).message);
    await call("universalAuth.clearLockouts", { params });

    const renewed = await call("accessTokens.renew", { body: { accessToken: token } }, { token: null, as: subject });
    keep((renewed.body as { accessToken: string }).accessToken);
    expect(renewed.event?.metadata).toMatchObject({ identityAccessTokenId: decodeJwt(token).identityAccessTokenId });
    await call("accessTokens.revoke", { body: { accessToken: token } }, { token: null, as: subject });
    await call("universalAuth.revokeClientSecret", { params: { ...params, clientSecretId: clientSecretData.id } });
    await call("universalAuth.revoke", { params });
  });

  it("Kubernetes auth, never recording the reviewer JWT or the service account token", async () => {
    const params = { identityId: subject.identityId };
    const attached = await call("kubernetesAuth.attach", {
      params,
      body: {
        kubernetesHost: cluster.url,
        tokenReviewerJwt: REVIEWER_JWT,
        allowedNamespaces: "payments",
        allowedNames: "deployer",
        allowedAudience: "",
      },
    });
    expect(attached.event?.metadata).toMatchObject({ kubernetesHost: cluster.url, allowedNamespaces: "payments" });
    expect(attached.event?.metadata).not.toHaveProperty("tokenReviewerJwt");
    await call("kubernetesAuth.get", { params });
    await call("kubernetesAuth.update", { params, body: { tokenReviewerJwt: `${REVIEWER_JWT}-2` } });
    keep(`${REVIEWER_JWT}-2`);
    const login = await call(
      "kubernetesAuth.login",
      { body: { identityId: subject.identityId, jwt: SERVICE_ACCOUNT_JWT } },
      { token: null, as: subject },
    );
    keep((login.body as { accessToken: string }).accessToken);
    expect(login.event?.metadata).toHaveProperty("identityKubernetesAuthId");
    const refused = await call(
      "kubernetesAuth.login",
      { body: { identityId: subject.identityId, jwt: "some-other-jwt" } },
      { token: null, status: 401, as: subject },
    );
    expect(refused.event?.metadata.reasonCode).toBe("unauthorized");
    keep(SERVICE_ACCOUNT_JWT);
    const tried = await call("kubernetesAuth.dryRunLogin", {
      params,
      body: { settings: { allowedNames: "someone-else" }, jwt: SERVICE_ACCOUNT_JWT },
    });
    expect(tried.event?.type).toBe("dry-run-login-identity-kubernetes-auth");
    expect(tried.event?.metadata).toMatchObject({
      identityId: subject.identityId,
      settingsTried: ["allowedNames"],
      accepted: false,
      peerOk: true,
      failedRule: "name",
      refusalStatusCode: 401,
      refusalMessage: "Access denied: K8s name not allowed.",
    });
    await call("kubernetesAuth.revoke", { params });
  });

  it("AWS auth", async () => {
    const params = { identityId: subject.identityId };
    await call("awsAuth.attach", {
      params,
      body: { stsEndpoint: `${sts.url}/`, allowedAccountIds: "111122223333", allowedPrincipalArns: "" },
    });
    await call("awsAuth.get", { params });
    await call("awsAuth.update", { params, body: { allowedAccountIds: "111122223333, 444455556666" } });
    const signedBy = (secret: string) => {
      const headers = signGetCallerIdentity(AWS_KEY, secret);
      keep(...Object.values(headers).filter((v) => v.includes("Signature=")));
      return {
        identityId: subject.identityId,
        iamHttpRequestMethod: "POST",
        iamRequestUrl: b64("https://sts.amazonaws.com/"),
        iamRequestBody: b64(GET_CALLER_IDENTITY),
        iamRequestHeaders: b64(JSON.stringify(headers)),
      };
    };
    const login = await call("awsAuth.login", { body: signedBy(AWS_SECRET) }, { token: null, as: subject });
    keep((login.body as { accessToken: string }).accessToken);
    expect(login.event?.metadata).toHaveProperty("identityAwsAuthId");
    await call("awsAuth.login", { body: signedBy("wrong-secret") }, { token: null, status: 401, as: subject });
    const { identityId: _, ...signed } = signedBy(AWS_SECRET);
    const tried = await call("awsAuth.dryRunLogin", { params, body: { settings: {}, ...signed } });
    expect(tried.event?.metadata).toMatchObject({
      identityId: subject.identityId,
      settingsTried: [],
      accepted: true,
      peerOk: true,
      peerStatusCode: 200,
    });
    await call("awsAuth.revoke", { params });
  });

  it("projects, environments, tags, roles and memberships", async () => {
    projectSlug = `audit-${Date.now() % 1_000_000}`;
    const created = await call("projects.create", { body: { projectName: "Audit", slug: projectSlug } });
    projectId = (created.body as { project: { id: string } }).project.id;
    expect(created.event).toMatchObject({ projectId, metadata: { name: "Audit", slug: projectSlug } });
    await call("projects.list", {});
    await call("projects.get", { params: { workspaceId: projectId } });
    await call("projects.getPermissions", { params: { workspaceId: projectId } });
    const updated = await call("projects.update", { params: { workspaceId: projectId }, body: { description: "d" } });
    expect(updated.event).toMatchObject({ projectId, metadata: { description: "d" } });

    const env = await call("environments.create", {
      params: { workspaceId: projectId },
      body: { name: "QA", slug: "qa" },
    });
    const envId = (env.body as { environment: { id: string } }).environment.id;
    expect(env.event).toMatchObject({ projectId, metadata: { slug: "qa", name: "QA" } });
    await call("environments.update", { params: { workspaceId: projectId, id: envId }, body: { name: "QA 2" } });
    await call("environments.delete", { params: { workspaceId: projectId, id: envId } });

    const tag = await call("tags.create", {
      params: { workspaceId: projectId },
      body: { slug: "audit", color: "#aabbcc" },
    });
    const tagId = (tag.body as { workspaceTag: { id: string } }).workspaceTag.id;
    await call("tags.list", { params: { workspaceId: projectId } });
    await call("tags.delete", { params: { workspaceId: projectId, tagId } });

    const rules = [{ subject: "secrets", action: ["read"], conditions: { environment: "dev" } }];
    const role = await call("projectRoles.create", {
      params: { projectId },
      body: { slug: "audit-reader", name: "Audit Reader", permissions: rules },
    });
    const roleId = (role.body as { role: { id: string } }).role.id;
    expect(role.event).toMatchObject({ projectId, metadata: { roleId, slug: "audit-reader" } });
    expect(JSON.parse(String(role.event?.metadata.permissions))).toEqual(
      (role.body as { role: { permissions: unknown } }).role.permissions,
    );
    await call("projectRoles.list", { params: { projectId } }, { where: { projectId } });
    await call("projectRoles.getBySlug", { params: { projectId, roleSlug: "audit-reader" } });
    await call("projectRoles.update", { params: { projectId, roleId }, body: { name: "Audit Reader 2" } });
    await call("projectRoles.delete", { params: { projectId, roleId } });

    const membership = { projectId, identityId: subject.identityId };
    const added = await call("identityMemberships.add", {
      params: membership,
      body: { roles: [{ role: "viewer", isTemporary: false }] },
    });
    expect(added.event).toMatchObject({ projectId, metadata: { identityId: subject.identityId } });
    await call("identityMemberships.list", { params: { projectId } });
    await call("identityMemberships.get", { params: membership });
    await call("identityMemberships.update", {
      params: membership,
      body: { roles: [{ role: "viewer", isTemporary: false }] },
    });
    const invited = await call("projectUsers.invite", {
      params: { projectId },
      body: { emails: ["audit@example.com"] },
    });
    expect(invited.event?.metadata.members).toEqual([expect.objectContaining({ email: "audit@example.com" })]);
    await call("projects.listMemberships", { params: { workspaceId: projectId } });
  });

  it("additional privileges, v1 and v2", async () => {
    const rules = [
      { action: ["read"], subject: "secrets", conditions: { environment: "dev", secretPath: { $glob: "/**" } } },
    ];
    const created = await call("identityPrivileges.create", {
      body: {
        identityId: subject.identityId,
        projectId,
        slug: "priv-a",
        permissions: rules,
        type: { isTemporary: false },
      },
    });
    const id = (created.body as { privilege: { id: string } }).privilege.id;
    expect(created.event).toMatchObject({ projectId, metadata: { identityId: subject.identityId, privilegeId: id } });
    await call("identityPrivileges.get", { params: { id } });
    await call("identityPrivileges.list", { query: { identityId: subject.identityId, projectId } });
    await call("identityPrivileges.getBySlug", {
      params: { privilegeSlug: "priv-a" },
      query: { identityId: subject.identityId, projectSlug },
    });
    const updated = await call("identityPrivileges.update", {
      params: { id },
      body: { slug: "priv-b", type: { isTemporary: false } },
    });
    expect(updated.event).toMatchObject({ projectId, metadata: { privilegeSlug: "priv-b" } });
    await call("identityPrivileges.delete", { params: { id } });

    const v1 = { identityId: subject.identityId, projectSlug };
    const v1Rules = [{ action: "read", subject: "secrets", conditions: { environment: "dev" } }];
    const permanent = await call("identityPrivileges.createPermanentV1", {
      body: { ...v1, slug: "priv-v1", permissions: v1Rules },
    });
    expect(permanent.event?.projectId).toBe(projectId);
    await call("identityPrivileges.createTemporaryV1", {
      body: {
        ...v1,
        slug: "priv-v1-temp",
        permissions: v1Rules,
        temporaryMode: "relative",
        temporaryRange: "1h",
        temporaryAccessStartTime: new Date().toISOString(),
      },
    });
    await call("identityPrivileges.listV1", { query: v1 });
    await call("identityPrivileges.getBySlugV1", { params: { privilegeSlug: "priv-v1" }, query: v1 });
    await call("identityPrivileges.updateV1", {
      body: { privilegeSlug: "priv-v1", ...v1, privilegeDetails: { slug: "priv-v1-b" } },
    });
    await call("identityPrivileges.deleteV1", { body: { privilegeSlug: "priv-v1-b", ...v1 } });
  });

  it("OIDC auth: the login records the claims received, never the JWT; the token's reads carry the mapped claims", async () => {
    const params = { identityId: subject.identityId };
    await call("oidcAuth.attach", {
      params,
      body: {
        oidcDiscoveryUrl: issuer.peer.url,
        boundIssuer: issuer.peer.url,
        boundAudiences: "keyhold-audit",
        boundClaims: { repository: "acme/app" },
        claimMetadataMapping: { repo: "repository", runBy: "actor" },
        accessTokenTTL: 600,
        accessTokenMaxTTL: 1200,
      },
    });
    await call("oidcAuth.get", { params });
    await call("oidcAuth.update", { params, body: { accessTokenTTL: 900 } });
    const claims = {
      sub: "repo:acme/app",
      aud: "keyhold-audit",
      repository: "acme/app",
      actor: "octocat",
      run_id: "42",
    };
    const jwt = await issuer.sign(claims);
    keep(jwt);
    const login = await call(
      "oidcAuth.login",
      { body: { identityId: subject.identityId, jwt } },
      { token: null, as: subject },
    );
    const token = (login.body as { accessToken: string }).accessToken;
    keep(token);
    expect(login.event?.metadata.oidcClaimsReceived).toEqual(decodeJwt(jwt));
    expect(login.event?.metadata).toHaveProperty("identityOidcAuthId");
    const refused = await call(
      "oidcAuth.login",
      { body: { identityId: subject.identityId, jwt: await issuer.sign({ ...claims, repository: "acme/other" }) } },
      { token: null, status: 401, as: subject },
    );
    expect(refused.event?.metadata).toMatchObject({
      reasonCode: "claim_not_allowed",
      message: "Access denied: OIDC claim not allowed.",
    });
    const tried = await call("oidcAuth.dryRunLogin", {
      params,
      body: { settings: { boundSubject: "repo:acme/other" }, jwt },
    });
    expect(tried.event?.metadata).toEqual({
      identityId: subject.identityId,
      settingsTried: ["boundSubject"],
      accepted: false,
      peerOk: true,
      failedRule: "subject",
      refusalStatusCode: 403,
      refusalMessage: "Access denied: OIDC subject not allowed.",
    });

    // A read made with the OIDC token (the subject is a viewer of the project by now).
    await svc.endpoint("secrets.create", {
      params: { secretName: "OIDC_READ" },
      body: { ...place(), secretValue: "oidc-read-secret-value-1" },
    });
    keep("oidc-read-secret-value-1");
    const read = await call(
      "secrets.get",
      { params: { secretName: "OIDC_READ" }, query: { workspaceId: projectId, environment: "dev" } },
      {
        token,
        as: { ...subject, authMethod: "oidc-auth" },
        where: { projectId, environment: "dev", secretKey: "OIDC_READ" },
      },
    );
    expect(read.event?.actor.oidc).toEqual({ claims: { repo: "acme/app", runBy: "octocat" } });
    await call("oidcAuth.revoke", { params });
  });

  it("secrets: writes and every read of a value, with project, environment, path and key", async () => {
    const where = (secretKey: string | null) => ({ projectId, environment: "dev", secretPath: "/", secretKey });
    const value = (n: number) => `audit-secret-value-${n}-c4f1`;
    keep(value(1), value(2), value(3), value(4));
    const created = await call(
      "secrets.create",
      { params: { secretName: "DB_URL" }, body: { ...place(), secretValue: value(1) } },
      { where: where("DB_URL") },
    );
    const secretId = (created.body as { secret: { id: string } }).secret.id;
    expect(created.event?.metadata).toMatchObject({ secretId, secretVersion: 1 });
    await call(
      "secrets.createV4",
      { params: { secretName: "API_KEY" }, body: { ...place(), secretValue: value(2) } },
      { where: where("API_KEY") },
    );
    const query = { workspaceId: projectId, environment: "dev" };
    await call("secrets.get", { params: { secretName: "DB_URL" }, query }, { where: where("DB_URL") });
    await call("secrets.getV4", { params: { secretName: "DB_URL" }, query }, { where: where("DB_URL") });
    await call("secrets.getById", { params: { secretId } }, { where: where("DB_URL") });
    const listed = await call("secrets.list", { query }, { where: where(null) });
    expect(listed.event?.metadata).toMatchObject({ numberOfSecrets: 3 });
    expect(listed.event?.metadata).not.toHaveProperty("viewSecretValue");
    const digests = await call(
      "secrets.listV4",
      { query: { ...query, viewSecretValue: "false", includeValueDigests: "true" } },
      { where: where(null) },
    );
    expect(digests.event?.metadata).toMatchObject({ viewSecretValue: false, includeValueDigests: true });
    await call(
      "secrets.update",
      { params: { secretName: "DB_URL" }, body: { ...place(), secretValue: value(3) } },
      { where: where("DB_URL") },
    );
    await call(
      "secrets.updateV4",
      { params: { secretName: "API_KEY" }, body: { ...place(), secretValue: value(4) } },
      { where: where("API_KEY") },
    );
    const versions = await call("secretVersions.list", { params: { secretId } }, { where: where("DB_URL") });
    expect(versions.event?.metadata).toMatchObject({ numberOfVersions: 2 });

    const batch = (n: number) => `audit-batch-value-${n}-0a9e`;
    keep(batch(1), batch(2), batch(3), batch(4));
    const batchCreated = await call(
      "secrets.batchCreate",
      { body: { ...place(), secrets: [{ secretKey: "B1", secretValue: batch(1) }] } },
      { where: where(null) },
    );
    expect(batchCreated.event?.metadata.secrets).toEqual([
      expect.objectContaining({ secretKey: "B1", secretVersion: 1 }),
    ]);
    await call("secrets.batchCreateV4", {
      body: { ...place(), secrets: [{ secretKey: "B2", secretValue: batch(2) }] },
    });
    await call("secrets.batchUpdate", { body: { ...place(), secrets: [{ secretKey: "B1", secretValue: batch(3) }] } });
    await call("secrets.batchUpdateV4", {
      body: { ...place(), secrets: [{ secretKey: "B2", secretValue: batch(4) }] },
    });
    await call("secrets.batchDelete", { body: { ...place(), secrets: [{ secretKey: "B1" }] } });
    await call("secrets.batchDeleteV4", { body: { ...place(), secrets: [{ secretKey: "B2" }] } });
    keep("audit-commit-value-5d2e");
    const committed = await call(
      "pitBatch.commit",
      {
        body: {
          projectId,
          environment: "dev",
          secretPath: "/",
          message: "audit commit",
          changes: { secrets: { create: [{ secretKey: "C1", secretValue: "audit-commit-value-5d2e" }] } },
        },
      },
      { where: { projectId, environment: "dev", secretPath: "/" } },
    );
    expect(committed.event?.metadata.created).toEqual([expect.objectContaining({ secretKey: "C1" })]);
  });

  it("folders and imports", async () => {
    const folder = await call(
      "folders.create",
      { body: { workspaceId: projectId, environment: "dev", name: "app", path: "/" } },
      { where: { projectId, environment: "dev" } },
    );
    const folderId = (folder.body as { folder: { id: string } }).folder.id;
    await call("folders.list", { query: { workspaceId: projectId, environment: "dev" } });
    await call("folders.get", { params: { folderId } });
    await call("folders.update", {
      params: { folderId },
      body: { workspaceId: projectId, environment: "dev", name: "app2", path: "/" },
    });
    await call("folders.delete", {
      params: { folderId },
      body: { workspaceId: projectId, environment: "dev", path: "/" },
    });

    const importing = { workspaceId: projectId, environment: "dev", path: "/" };
    const made = await call(
      "secretImports.create",
      { body: { ...importing, import: { environment: "staging", path: "/" } } },
      { where: { projectId, environment: "dev", secretPath: "/" } },
    );
    const secretImportId = (made.body as { secretImport: { id: string } }).secretImport.id;
    await call("secretImports.list", { query: importing });
    await call("secretImports.listSecrets", { query: importing });
    await call("secretImports.update", { params: { secretImportId }, body: { ...importing, import: { position: 1 } } });
    await call("secretImports.delete", { params: { secretImportId }, body: importing });
  });

  it("snapshots and point-in-time commits", async () => {
    const folderQuery = { projectId, environment: "dev", path: "/" };
    const listed = await call("pitCommits.list", { query: folderQuery }, { where: { projectId, environment: "dev" } });
    const commits = (listed.body as { commits: { id: string; folderId: string }[] }).commits;
    const [latest, earlier] = commits;
    expect(earlier).toBeDefined();
    const folderId = latest?.folderId ?? "";
    await call("pitCommits.count", { query: folderQuery });
    await call("pitCommits.changes", { params: { commitId: latest?.id ?? "" }, query: { projectId } });
    await call("pitCommits.folderState", { params: { commitId: earlier?.id ?? "" }, query: { projectId, folderId } });
    await call("pitCommits.compare", {
      params: { commitId: earlier?.id ?? "" },
      query: { projectId, folderId, environment: "dev", secretPath: "/" },
    });
    await call("pitCommits.revert", { params: { commitId: latest?.id ?? "" }, body: { projectId } });
    await call("pitCommits.rollback", {
      params: { commitId: earlier?.id ?? "" },
      body: { projectId, folderId, environment: "dev" },
    });

    const snapshotQuery = { environment: "dev", path: "/" };
    await call("secretSnapshots.list", { params: { workspaceId: projectId }, query: snapshotQuery });
    await call("secretSnapshots.listV2", { params: { workspaceId: projectId }, query: snapshotQuery });
    await call("secretSnapshots.count", { params: { workspaceId: projectId }, query: snapshotQuery });
    await call("secretSnapshots.countV2", { params: { workspaceId: projectId }, query: snapshotQuery });
    await call("secretSnapshots.get", { params: { secretSnapshotId: earlier?.id ?? "" } }, { where: { projectId } });
    await call("secretSnapshots.rollback", { params: { secretSnapshotId: earlier?.id ?? "" }, body: {} });

    const place1 = place();
    await call(
      "secrets.delete",
      { params: { secretName: "DB_URL" }, body: place1 },
      { where: { secretKey: "DB_URL" } },
    );
    await svc.endpoint("secrets.create", {
      params: { secretName: "GONE" },
      body: { ...place1, secretValue: "gone-v" },
    });
    keep("gone-v");
    await call("secrets.deleteV4", { params: { secretName: "GONE" }, body: place1 }, { where: { secretKey: "GONE" } });
  });

  it("integrations: credentials never recorded", async () => {
    const auth = await call("integrationAuths.create", {
      body: { workspaceId: projectId, integration: "github", accessToken: INTEGRATION_TOKEN },
    });
    const integrationAuthId = (auth.body as { integrationAuth: { id: string } }).integrationAuth.id;
    expect(auth.event).toMatchObject({ projectId, metadata: { integrationAuthId, integration: "github" } });
    await call("projects.listIntegrationAuths", { params: { workspaceId: projectId } });
    await call("integrationAuths.get", { params: { integrationAuthId } });
    await call("integrationAuths.update", {
      params: { integrationAuthId },
      body: { accessToken: INTEGRATION_TOKEN_2 },
    });
    const made = await call(
      "integrations.create",
      { body: { integrationAuthId, sourceEnvironment: "dev", app: "repo" } },
      { where: { projectId } },
    );
    const integrationId = (made.body as { integration: { id: string } }).integration.id;
    await call("integrations.get", { params: { integrationId } });
    await call("projects.listIntegrations", { params: { workspaceId: projectId } });
    await call(
      "integrations.update",
      { params: { integrationId }, body: { isActive: false } },
      { where: { projectId } },
    );
    await call("integrations.delete", { params: { integrationId } }, { where: { projectId } });
    await call("integrationAuths.delete", { params: { integrationAuthId } });
  });

  it("the audit log's own endpoints and streams", async () => {
    await call("auditLogs.listOrg", { query: {} });
    await call("auditLogs.listProject", { params: { workspaceId: projectId } });
    await call("auditLogs.verify", {});
    await call("projects.updateAuditLogsRetention", { params: { projectId }, body: { auditLogsRetentionDays: 30 } });
    await call("projects.updateAuditLogsRetentionLegacy", {
      params: { workspaceSlug: projectSlug },
      body: { auditLogsRetentionDays: 45 },
    });
    await call("organizations.getAuditLogsRetention", {});
    await call("organizations.updateAuditLogsRetention", { body: { auditLogsRetentionDays: 120 } });

    const credentials = {
      url: `${receiver.url}/audit/collector-key-in-path`,
      headers: [{ key: "Authorization", value: STREAM_HEADER }],
    };
    await call("auditLogStreams.options", {});
    const created = await call("auditLogStreams.create", { params: { provider: "custom" }, body: { credentials } });
    const streamId = (created.body as { auditLogStream?: { id: string } } | undefined)?.auditLogStream?.id;
    if (created.event) expect(created.event.metadata).toEqual({ streamId, provider: "custom", url: receiver.url });
    await call("auditLogStreams.list", {});
    await call("auditLogStreams.status", {});
    // Until streams are served, the endpoints that need one cannot be driven: they count as not served.
    const waiting = (ids: EndpointId[]) => {
      for (const id of ids) driven.set(id, "not served");
    };
    if (!streamId)
      waiting(["auditLogStreams.get", "auditLogStreams.test", "auditLogStreams.update", "auditLogStreams.delete"]);
    if (streamId) {
      const params = { provider: "custom", streamId };
      await call("auditLogStreams.get", { params });
      await call("auditLogStreams.test", { params });
      await call("auditLogStreams.update", { params, body: { credentials } });
      await call("auditLogStreams.delete", { params });
    }
    const legacy = await call("auditLogStreams.createLegacy", {
      body: { url: `${receiver.url}/legacy`, headers: [{ key: "Authorization", value: STREAM_HEADER }] },
    });
    const legacyId = (legacy.body as { auditLogStream?: { id: string } } | undefined)?.auditLogStream?.id;
    if (!legacyId)
      waiting(["auditLogStreams.getLegacy", "auditLogStreams.updateLegacy", "auditLogStreams.deleteLegacy"]);
    if (legacyId) {
      await call("auditLogStreams.getLegacy", { params: { streamId: legacyId } });
      await call("auditLogStreams.updateLegacy", {
        params: { streamId: legacyId },
        body: { url: `${receiver.url}/l2` },
      });
      await call("auditLogStreams.deleteLegacy", { params: { streamId: legacyId } });
    }
  });

  it("closes the project and the identity it made", async () => {
    await call("identityMemberships.remove", { params: { projectId, identityId: subject.identityId } });
    await call("tokenAuth.revoke", { params: { identityId: subject.identityId } });
    const other = await svc.endpoint("projects.create", {
      body: { projectName: "Audit doomed", slug: `doomed-${Date.now() % 100000}` },
    });
    const doomedId = endpoints["projects.create"].response.parse(other.body).project.id;
    await call("projects.delete", { params: { workspaceId: doomedId } }, { where: { projectId: doomedId } });
  });

  describe("after every endpoint", () => {
    it("drove every endpoint of the contract (the ones this build does not serve answer 501)", () => {
      const missing = endpointList.map((e) => e.id).filter((id: EndpointId) => !driven.has(id));
      expect(missing).toEqual([]);
      const notServed = [...driven].filter(([, how]) => how === "not served").map(([id]) => id);
      // Only the audit log's own endpoints may still be waiting for their handlers.
      expect(
        notServed.filter((id) => !/^(auditLogs|auditLogStreams|organizations)\.|AuditLogsRetention/.test(id)),
      ).toEqual([]);
    });

    it("uses Infisical's metadata keys wherever a mid-2026 server recorded an event of the same type", async () => {
      const recorded = recordedMetadataKeys();
      const ours = new Map<string, Set<string>>();
      const rows = await svc.app.db.selectFrom("audit_events").select(["event_type", "event_metadata"]).execute();
      for (const row of rows) {
        const keys = ours.get(row.event_type ?? "") ?? new Set<string>();
        for (const key of Object.keys(JSON.parse(row.event_metadata ?? "{}") as object)) keys.add(key);
        ours.set(row.event_type ?? "", keys);
      }
      const missing: string[] = [];
      for (const [type, keys] of recorded) {
        const mine = ours.get(type);
        if (!mine) continue;
        for (const key of keys) if (!mine.has(key) && !KNOWN_GAPS[type]?.includes(key)) missing.push(`${type}.${key}`);
      }
      expect(missing).toEqual([]);
      // Most recorded types are ones this service writes too.
      expect([...recorded.keys()].filter((type) => ours.has(type)).length).toBeGreaterThanOrEqual(20);
    });

    it("stored no secret value, client secret, access token or JWT in any event", async () => {
      const rows = await everyEventAsText(svc);
      expect(rows.length).toBeGreaterThan(50);
      const leaks = rows.flatMap((row) =>
        [...secrets].filter((secret) => row.includes(secret)).map((s) => `${s} in ${row}`),
      );
      expect(leaks).toEqual([]);
    });
  });
});

/**
 * Recorded keys an event of this test need not have: update-project records the fields a call
 * changed, and the recorded call changed the retention (a route of its own here).
 */
const KNOWN_GAPS: Record<string, string[]> = { "update-project": ["auditLogsRetentionDays"] };
