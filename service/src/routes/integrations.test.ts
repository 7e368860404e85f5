import fs from "node:fs";
import path from "node:path";
import { endpoints, ErrorBodySchema, INTEGRATION_NOT_SYNCED_MESSAGE } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSealer } from "../lib/sealing.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject, memberWithRoles } from "../test/project-fixtures.ts";
import { folderAt } from "../test/secret-import-fixtures.ts";

const parse = {
  auth: endpoints["integrationAuths.create"].response,
  auths: endpoints["projects.listIntegrationAuths"].response,
  one: endpoints["integrations.create"].response,
  list: endpoints["projects.listIntegrations"].response,
};
const errorOf = (body: unknown) => ErrorBodySchema.parse(body);

const ROOT_KEY = Buffer.alloc(32, 7).toString("base64");
const TOKEN = "ghp_integration-token-plaintext-4f1c9a";
const REFRESH = "refresh-token-plaintext-77b2d0";

describeEachDatabase("integrations", (kind) => {
  let svc: TestService;
  let projectId: string;
  beforeAll(async () => {
    svc = await startService({ kind, rootKey: ROOT_KEY });
    projectId = (await createProject(svc)).id;
  });
  afterAll(async () => svc?.close());

  const createAuth = async (body: Record<string, unknown> = {}, token?: string) =>
    svc.endpoint(
      "integrationAuths.create",
      { body: { workspaceId: projectId, integration: "github", accessToken: TOKEN, ...body } },
      token === undefined ? {} : { token },
    );
  const authId = async (body: Record<string, unknown> = {}) => {
    const res = await createAuth(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return parse.auth.parse(res.body).integrationAuth.id;
  };
  const createIntegration = (body: Record<string, unknown>, token?: string) =>
    svc.endpoint("integrations.create", { body }, token === undefined ? {} : { token });

  describe("integration auths", () => {
    it("stores a provider's credentials and returns the auth without them", async () => {
      const res = await createAuth({ url: "https://github.example.com", namespace: "team-a" });
      expect(res.status).toBe(200);
      const { integrationAuth } = parse.auth.parse(res.body);
      expect(integrationAuth).toMatchObject({
        projectId,
        integration: "github",
        url: "https://github.example.com",
        namespace: "team-a",
        teamId: null,
        accountId: null,
        metadata: null,
      });
      expect(JSON.stringify(res.body)).not.toContain(TOKEN);
      // Infisical's integration-auth record, field for field (no recording has one).
      expect(Object.keys(integrationAuth).sort()).toEqual(
        [
          "id",
          "projectId",
          "integration",
          "teamId",
          "url",
          "namespace",
          "accountId",
          "metadata",
          "createdAt",
          "updatedAt",
        ].sort(),
      );

      const got = await svc.endpoint("integrationAuths.get", { params: { integrationAuthId: integrationAuth.id } });
      expect(got.body).toEqual(res.body);
      const listed = parse.auths.parse(
        (await svc.endpoint("projects.listIntegrationAuths", { params: { workspaceId: projectId } })).body,
      );
      expect(listed.authorizations.map((a) => a.id)).toContain(integrationAuth.id);
    });

    it("seals the credentials: not in the database in plain text, bound to their row", async () => {
      const id = await authId({ refreshToken: REFRESH });
      const row = await svc.app.db
        .selectFrom("integration_auths")
        .select(["sealed_credentials"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row.sealed_credentials).not.toContain(TOKEN);
      const sealer = createSealer(Buffer.from(ROOT_KEY, "base64"), "integration-credentials");
      const sealed = row.sealed_credentials as string;
      expect(JSON.parse(sealer.open(sealed, `integration_auths:${id}:sealed_credentials`))).toEqual({
        accessToken: TOKEN,
        refreshToken: REFRESH,
      });
      const other = await authId();
      expect(() => sealer.open(sealed, `integration_auths:${other}:sealed_credentials`)).toThrow();

      if (kind === "sqlite") {
        // Everything SQLite holds (the file and its write-ahead log) lacks the plain text.
        const dir = svc.config.dataDir;
        const bytes = fs
          .readdirSync(dir)
          .filter((name) => name.includes(".sqlite") || name.endsWith(".db") || name.includes("-wal"))
          .map((name) => fs.readFileSync(path.join(dir, name)));
        expect(bytes.length).toBeGreaterThan(0);
        for (const content of bytes) {
          expect(content.includes(Buffer.from(TOKEN))).toBe(false);
          expect(content.includes(Buffer.from(REFRESH))).toBe(false);
        }
      } else {
        const dump = await svc.app.db.selectFrom("integration_auths").selectAll().execute();
        expect(JSON.stringify(dump)).not.toContain(TOKEN);
      }
    });

    it("replaces credentials on update: a token drops a stored role ARN", async () => {
      const id = await authId({
        integration: "aws-parameter-store",
        accessToken: undefined,
        awsAssumeIamRoleArn: "arn:aws:iam::1:role/x",
      });
      const res = await svc.endpoint("integrationAuths.update", {
        params: { integrationAuthId: id },
        body: { accessId: "AKIAEXAMPLE", accessToken: "aws-secret-key", namespace: "ns" },
      });
      expect(res.status).toBe(200);
      expect(parse.auth.parse(res.body).integrationAuth.namespace).toBe("ns");
      const row = await svc.app.db
        .selectFrom("integration_auths")
        .select("sealed_credentials")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      const sealer = createSealer(Buffer.from(ROOT_KEY, "base64"), "integration-credentials");
      expect(
        JSON.parse(sealer.open(row.sealed_credentials as string, `integration_auths:${id}:sealed_credentials`)),
      ).toEqual({ accessId: "AKIAEXAMPLE", accessToken: "aws-secret-key" });
    });

    it("refuses an unknown provider (400), a bad body (422), an unknown auth (404), and a viewer (403)", async () => {
      const unknown = await createAuth({ integration: "not-a-provider" });
      expect(unknown.status).toBe(400);
      expect(errorOf(unknown.body).message).toBe("Invalid integration");

      const bad = await createAuth({ url: "not a url" });
      expect(bad.status).toBe(422);

      const missing = await svc.endpoint("integrationAuths.get", {
        params: { integrationAuthId: "00000000-0000-4000-8000-000000000000" },
      });
      expect(missing.status).toBe(404);
      expect(errorOf(missing.body).message).toBe(
        "Integration auth with ID '00000000-0000-4000-8000-000000000000' not found",
      );

      const viewer = await memberWithRoles(svc, projectId, ["viewer"], "integrations-viewer");
      const refused = await createAuth({}, viewer.token);
      expect(refused.status).toBe(403);
      expect(errorOf(refused.body)).toMatchObject({
        error: "PermissionDenied",
        message: "You are not allowed to create on integrations",
      });
      const id = await authId();
      const del = await svc.endpoint(
        "integrationAuths.delete",
        { params: { integrationAuthId: id } },
        { token: viewer.token },
      );
      expect(del.status).toBe(403);
    });

    it("answers 404 for every call on an auth that does not exist, and 403 outside the project", async () => {
      const integrationAuthId = "00000000-0000-4000-8000-000000000000";
      for (const res of [
        await svc.endpoint("integrationAuths.update", { params: { integrationAuthId }, body: { namespace: "x" } }),
        await svc.endpoint("integrationAuths.delete", { params: { integrationAuthId } }),
      ]) {
        expect(res.status).toBe(404);
      }
      const badProvider = await svc.endpoint("integrationAuths.update", {
        params: { integrationAuthId: await authId() },
        body: { integration: "nope" },
      });
      expect(badProvider.status).toBe(400);
      const unknownProject = await svc.endpoint("projects.listIntegrationAuths", {
        params: { workspaceId: "00000000-0000-4000-8000-000000000000" },
      });
      expect(unknownProject.status).toBe(404);
      const outsider = await memberWithRoles(svc, (await createProject(svc)).id, ["admin"], "auth-outsider");
      const refused = await svc.endpoint(
        "projects.listIntegrationAuths",
        { params: { workspaceId: projectId } },
        { token: outsider.token },
      );
      expect(refused.status).toBe(403);
      expect(errorOf(refused.body).error).toBe("ProjectMembershipNotFound");
    });

    it("deletes an auth together with its integrations", async () => {
      const id = await authId();
      const integration = parse.one.parse(
        (await createIntegration({ integrationAuthId: id, sourceEnvironment: "dev", app: "repo" })).body,
      ).integration;
      const res = await svc.endpoint("integrationAuths.delete", { params: { integrationAuthId: id } });
      expect(res.status).toBe(200);
      expect(parse.auth.parse(res.body).integrationAuth.id).toBe(id);
      const gone = await svc.endpoint("integrations.get", { params: { integrationId: integration.id } });
      expect(gone.status).toBe(404);
    });
  });

  describe("integrations", () => {
    it("creates, reads, lists, updates and deletes an integration that says truthfully it is not synced", async () => {
      const integrationAuthId = await authId();
      const created = await createIntegration({
        integrationAuthId,
        sourceEnvironment: "staging",
        app: "acme/api",
        owner: "acme",
        targetEnvironment: "production",
        metadata: { secretPrefix: "APP_", githubVisibility: "private" },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const { integration } = parse.one.parse(created.body);
      expect(integration).toMatchObject({
        integration: "github",
        integrationAuthId,
        isActive: true,
        app: "acme/api",
        owner: "acme",
        targetEnvironment: "production",
        secretPath: "/",
        metadata: { secretPrefix: "APP_", githubVisibility: "private" },
        isSynced: false,
        syncMessage: INTEGRATION_NOT_SYNCED_MESSAGE,
        lastUsed: null,
        lastSyncJobId: null,
        environment: { slug: "staging", name: "Staging" },
      });
      expect(integration.envId).toBe(integration.environment.id);
      // Every field of Infisical's integration record, sync status included, and its environment.
      expect(Object.keys((created.body as { integration: object }).integration).sort()).toEqual(
        [
          "id",
          "isActive",
          "url",
          "app",
          "appId",
          "targetEnvironment",
          "targetEnvironmentId",
          "targetService",
          "targetServiceId",
          "owner",
          "path",
          "region",
          "scope",
          "integration",
          "metadata",
          "integrationAuthId",
          "envId",
          "secretPath",
          "createdAt",
          "updatedAt",
          "lastUsed",
          "isSynced",
          "syncMessage",
          "lastSyncJobId",
          "environment",
        ].sort(),
      );

      const got = await svc.endpoint("integrations.get", { params: { integrationId: integration.id } });
      expect(got.body).toEqual(created.body);
      const listed = parse.list.parse(
        (await svc.endpoint("projects.listIntegrations", { params: { workspaceId: projectId } })).body,
      );
      expect(listed.integrations.find((i) => i.id === integration.id)).toEqual(integration);

      const updated = await svc.endpoint("integrations.update", {
        params: { integrationId: integration.id },
        body: { environment: "prod", isActive: false, metadata: { secretSuffix: "_X" } },
      });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(parse.one.parse(updated.body).integration).toMatchObject({
        isActive: false,
        environment: { slug: "prod" },
        secretPath: "/",
        app: "acme/api",
        metadata: { secretPrefix: "APP_", githubVisibility: "private", secretSuffix: "_X" },
        isSynced: false,
        syncMessage: INTEGRATION_NOT_SYNCED_MESSAGE,
      });

      // A path given is kept by later changes that leave it out.
      await folderAt(svc, projectId, "prod", "/deploy");
      const moved = await svc.endpoint("integrations.update", {
        params: { integrationId: integration.id },
        body: { secretPath: "/deploy/" },
      });
      expect(parse.one.parse(moved.body).integration.secretPath).toBe("/deploy");
      const toggled = await svc.endpoint("integrations.update", {
        params: { integrationId: integration.id },
        body: { isActive: true },
      });
      expect(parse.one.parse(toggled.body).integration).toMatchObject({ secretPath: "/deploy", isActive: true });

      const deleted = await svc.call(
        "DELETE",
        `/api/v1/integration/${integration.id}?shouldDeleteIntegrationSecrets=true`,
      );
      expect(deleted.status).toBe(200);
      expect(parse.one.parse(deleted.body).integration.id).toBe(integration.id);
      const again = await svc.endpoint("integrations.delete", { params: { integrationId: integration.id } });
      expect(again.status).toBe(404);
      expect(errorOf(again.body).message).toBe(`Integration with ID '${integration.id}' not found`);
    });

    it("refuses an unknown auth (404), environment (404) or folder (404), and a bad body (422)", async () => {
      const integrationAuthId = await authId();
      const noAuth = await createIntegration({
        integrationAuthId: "00000000-0000-4000-8000-000000000000",
        sourceEnvironment: "dev",
      });
      expect(noAuth.status).toBe(404);
      const noEnv = await createIntegration({ integrationAuthId, sourceEnvironment: "qa" });
      expect(noEnv.status).toBe(404);
      expect(errorOf(noEnv.body).message).toBe(
        `Environment with slug 'qa' in project with ID '${projectId}' not found`,
      );
      const noFolder = await createIntegration({ integrationAuthId, sourceEnvironment: "dev", secretPath: "/nope" });
      expect(noFolder.status).toBe(404);
      expect(errorOf(noFolder.body).message).toBe("Folder with path '/nope' in environment with slug 'dev' not found");
      const bad = await createIntegration({ integrationAuthId: "x", sourceEnvironment: "dev" });
      expect(bad.status).toBe(422);
      const badMeta = await createIntegration({
        integrationAuthId,
        sourceEnvironment: "dev",
        metadata: { githubVisibility: "everyone" },
      });
      expect(badMeta.status).toBe(422);
    });

    it("needs integrations permission, and readValue on the secrets it would carry", async () => {
      const integrationAuthId = await authId();
      const viewer = await memberWithRoles(svc, projectId, ["viewer"], "int-viewer");
      const listed = await svc.endpoint(
        "projects.listIntegrations",
        { params: { workspaceId: projectId } },
        {
          token: viewer.token,
        },
      );
      expect(listed.status).toBe(200);
      const refused = await createIntegration({ integrationAuthId, sourceEnvironment: "dev" }, viewer.token);
      expect(refused.status).toBe(403);

      const role = await svc.endpoint("projectRoles.create", {
        params: { projectId },
        body: {
          slug: "integrations-only",
          name: "Integrations only",
          permissions: [
            { subject: "integrations", action: ["read", "create", "edit", "delete"] },
            { subject: "secrets", action: ["readValue"], conditions: { environment: "dev" } },
          ],
        },
      });
      expect(role.status, JSON.stringify(role.body)).toBe(200);
      const operator = await memberWithRoles(svc, projectId, ["integrations-only"], "int-operator");
      const devOk = await createIntegration({ integrationAuthId, sourceEnvironment: "dev" }, operator.token);
      expect(devOk.status, JSON.stringify(devOk.body)).toBe(200);
      const prodRefused = await createIntegration({ integrationAuthId, sourceEnvironment: "prod" }, operator.token);
      expect(prodRefused.status).toBe(403);
      expect(errorOf(prodRefused.body)).toMatchObject({
        error: "PermissionDenied",
        message: "You are not allowed to readValue on secrets",
      });
      const id = parse.one.parse(devOk.body).integration.id;
      const moveRefused = await svc.endpoint(
        "integrations.update",
        { params: { integrationId: id }, body: { environment: "prod" } },
        { token: operator.token },
      );
      expect(moveRefused.status).toBe(403);

      const outsider = await memberWithRoles(svc, (await createProject(svc)).id, ["admin"], "int-outsider");
      const notMember = await svc.endpoint(
        "integrations.get",
        { params: { integrationId: id } },
        {
          token: outsider.token,
        },
      );
      expect(notMember.status).toBe(403);
      expect(errorOf(notMember.body).error).toBe("ProjectMembershipNotFound");
    });

    it("answers 404 for a change or delete of an integration that does not exist, and 422 for a bad id", async () => {
      const integrationId = "00000000-0000-4000-8000-000000000000";
      const update = await svc.endpoint("integrations.update", {
        params: { integrationId },
        body: { isActive: false },
      });
      expect(update.status).toBe(404);
      const del = await svc.endpoint("integrations.delete", { params: { integrationId } });
      expect(del.status).toBe(404);
      expect((await svc.endpoint("integrations.get", { params: { integrationId: "not-a-uuid" } })).status).toBe(422);
      const integrationAuthId = await authId();
      const { integration } = parse.one.parse(
        (await createIntegration({ integrationAuthId, sourceEnvironment: "dev" })).body,
      );
      const noEnv = await svc.endpoint("integrations.update", {
        params: { integrationId: integration.id },
        body: { environment: "qa" },
      });
      expect(noEnv.status).toBe(404);
      const noFolder = await svc.endpoint("integrations.update", {
        params: { integrationId: integration.id },
        body: { secretPath: "/missing" },
      });
      expect(noFolder.status).toBe(404);
      const viewer = await memberWithRoles(svc, projectId, ["viewer"], "int-viewer-2");
      const refused = await svc.endpoint(
        "integrations.delete",
        { params: { integrationId: integration.id } },
        { token: viewer.token },
      );
      expect(refused.status).toBe(403);
    });

    it("goes with its environment when the environment is deleted", async () => {
      const integrationAuthId = await authId();
      const env = endpoints["environments.create"].response.parse(
        (
          await svc.endpoint("environments.create", {
            params: { workspaceId: projectId },
            body: { name: "Preview", slug: "preview" },
          })
        ).body,
      ).environment;
      const { integration } = parse.one.parse(
        (await createIntegration({ integrationAuthId, sourceEnvironment: "preview" })).body,
      );
      await svc.endpoint("environments.delete", { params: { workspaceId: projectId, id: env.id } });
      expect((await svc.endpoint("integrations.get", { params: { integrationId: integration.id } })).status).toBe(404);
    });
  });
});
