import { endpoints } from "@keyhold/contract";
import { InfisicalSDK } from "@infisical/sdk";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";

/**
 * Infisical's official Node SDK (the npm package, unchanged) against the service over real
 * HTTP: it signs in with universal auth and does what it shares with the service — projects,
 * environments, folders, and secrets listed, read, created, updated, renamed and deleted by
 * environment and path, with references expanded as the SDK asks by default.
 */
describeEachDatabase("Infisical's Node SDK against the service", (kind) => {
  let svc: TestService;
  let sdk: InfisicalSDK;
  let projectId: string;

  beforeAll(async () => {
    svc = await startService({ kind });
    const siteUrl = await svc.app.listen({ port: 0, host: "127.0.0.1" });

    // An org admin identity with universal auth, set up by the service's admin.
    const created = await svc.endpoint("identities.create", {
      body: { name: "sdk-client", organizationId: svc.info.orgId, role: "admin" },
    });
    expect(created.status).toBe(200);
    const identityId = endpoints["identities.create"].response.parse(created.body).identity.id;
    const attached = await svc.endpoint("universalAuth.attach", { params: { identityId }, body: {} });
    expect(attached.status).toBe(200);
    const { clientId } = endpoints["universalAuth.attach"].response.parse(attached.body).identityUniversalAuth;
    const secret = await svc.endpoint("universalAuth.createClientSecret", { params: { identityId }, body: {} });
    expect(secret.status).toBe(200);
    const { clientSecret } = endpoints["universalAuth.createClientSecret"].response.parse(secret.body);

    sdk = new InfisicalSDK({ siteUrl });
    await sdk.auth().universalAuth.login({ clientId, clientSecret });
  });
  afterAll(async () => svc?.close());

  const at = (environment: string, secretPath = "/") => ({ projectId, environment, secretPath });

  it("creates a project and adds an environment (the defaults, dev, staging and prod, are used below)", async () => {
    const project = await sdk
      .projects()
      .create({ projectName: "SDK project", slug: `sdk-${kind}`, type: "secret-manager" });
    expect(project).toMatchObject({ name: "SDK project", slug: `sdk-${kind}`, type: "secret-manager" });
    projectId = project.id;

    const qa = await sdk.environments().create({ projectId, name: "QA", slug: "qa", position: 4 });
    expect(qa).toMatchObject({ name: "QA", slug: "qa" });
  });

  it("creates and lists folders", async () => {
    const folder = await sdk.folders().create({ projectId, environment: "dev", path: "/", name: "api" });
    expect(folder.name).toBe("api");
    const folders = await sdk.folders().listFolders({ projectId, environment: "dev", path: "/" });
    expect(folders.map((f) => f.name)).toEqual(["api"]);
  });

  it("creates, reads and lists secrets, with references expanded by default", async () => {
    await sdk.secrets().createSecret("DB_HOST", { ...at("dev"), secretValue: "db.internal" });
    await sdk.secrets().createSecret("DB_HOST", { ...at("staging"), secretValue: "db.staging.internal" });
    await sdk.secrets().createSecret("DB_URL", {
      ...at("dev"),
      secretValue: "postgres://${DB_HOST}:5432/app",
      secretComment: "built from DB_HOST",
    });
    await sdk.secrets().createSecret("API_KEY", { ...at("dev", "/api"), secretValue: "k-123" });
    await sdk
      .secrets()
      .createSecret("STAGING_URL", { ...at("dev", "/api"), secretValue: "https://${staging.DB_HOST}" });

    const url = await sdk.secrets().getSecret({ ...at("dev"), secretName: "DB_URL" });
    expect(url.secretValue).toBe("postgres://db.internal:5432/app");
    expect(url.secretComment).toBe("built from DB_HOST");
    const raw = await sdk.secrets().getSecret({ ...at("dev"), secretName: "DB_URL", expandSecretReferences: false });
    expect(raw.secretValue).toBe("postgres://${DB_HOST}:5432/app");

    const root = await sdk.secrets().listSecrets(at("dev"));
    expect(Object.fromEntries(root.secrets.map((s) => [s.secretKey, s.secretValue]))).toEqual({
      DB_HOST: "db.internal",
      DB_URL: "postgres://db.internal:5432/app",
    });
    const api = await sdk.secrets().listSecrets(at("dev", "/api"));
    expect(Object.fromEntries(api.secrets.map((s) => [s.secretKey, s.secretValue]))).toEqual({
      API_KEY: "k-123",
      STAGING_URL: "https://db.staging.internal",
    });
  });

  it("updates, renames and deletes a secret", async () => {
    const updated = await sdk.secrets().updateSecret("DB_HOST", { ...at("dev"), secretValue: "db2.internal" });
    expect(updated.secret.version).toBe(2);
    const url = await sdk.secrets().getSecret({ ...at("dev"), secretName: "DB_URL" });
    expect(url.secretValue).toBe("postgres://db2.internal:5432/app");

    await sdk.secrets().updateSecret("API_KEY", { ...at("dev", "/api"), newSecretName: "API_TOKEN" });
    const renamed = await sdk.secrets().getSecret({ ...at("dev", "/api"), secretName: "API_TOKEN" });
    expect(renamed.secretValue).toBe("k-123");

    const deleted = await sdk.secrets().deleteSecret("API_TOKEN", at("dev", "/api"));
    expect(deleted.secret.secretKey).toBe("API_TOKEN");
    await expect(sdk.secrets().getSecret({ ...at("dev", "/api"), secretName: "API_TOKEN" })).rejects.toThrow(
      /404|not found/i,
    );
  });
});
