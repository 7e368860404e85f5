import { endpoints, ErrorBodySchema, HIDDEN_SECRET_VALUE } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject, memberWithRoles } from "../test/project-fixtures.ts";

const parse = {
  list: endpoints["secrets.list"].response,
  get: endpoints["secrets.get"].response,
  provided: endpoints["secretImports.listSecrets"].response,
};
const errorOf = (body: unknown) => ErrorBodySchema.parse(body);

/** Imported secrets in lists, what each import provides, and `${…}` references, through the API. */
describeEachDatabase("imported and referenced secrets", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind });
  });
  afterAll(async () => svc?.close());

  async function project() {
    const { id: workspaceId } = await createProject(svc);
    const secret = async (environment: string, secretPath: string, key: string, secretValue: string) => {
      const res = await svc.endpoint("secrets.create", {
        params: { secretName: key },
        body: { workspaceId, environment, secretPath, secretValue },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const folder = async (environment: string, path: string, name: string) => {
      const res = await svc.endpoint("folders.create", { body: { workspaceId, environment, path, name } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const importInto = async (
      into: { environment: string; path?: string },
      source: { environment: string; path?: string },
    ) => {
      const res = await svc.endpoint("secretImports.create", {
        body: { workspaceId, path: "/", ...into, import: { path: "/", ...source } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return endpoints["secretImports.create"].response.parse(res.body).secretImport;
    };
    const list = (query: Record<string, string>, token?: string) =>
      svc.endpoint(
        "secrets.list",
        { query: { workspaceId, environment: "dev", secretPath: "/", ...query } },
        token === undefined ? {} : { token },
      );
    const get = (name: string, query: Record<string, string>, token?: string) =>
      svc.endpoint(
        "secrets.get",
        { params: { secretName: name }, query: { workspaceId, environment: "dev", secretPath: "/", ...query } },
        token === undefined ? {} : { token },
      );
    return { workspaceId, secret, folder, importInto, list, get };
  }

  describe("imports in the raw list (include_imports=true)", () => {
    it("lists each import's secrets in position order, nested imports after their parent", async () => {
      const p = await project();
      await p.secret("dev", "/", "OWN", "own");
      await p.secret("staging", "/", "API_KEY", "from-staging");
      await p.secret("prod", "/", "API_KEY", "from-prod");
      await p.folder("prod", "/", "shared");
      await p.secret("prod", "/shared", "DEEP", "deep");
      const staging = await p.importInto({ environment: "dev" }, { environment: "staging" });
      await p.importInto({ environment: "dev" }, { environment: "prod" });
      await p.importInto({ environment: "prod" }, { environment: "prod", path: "/shared" });
      // prod moves in front of staging.
      const moved = await svc.endpoint("secretImports.update", {
        params: { secretImportId: staging.id },
        body: { workspaceId: p.workspaceId, environment: "dev", path: "/", import: { position: 2 } },
      });
      expect(moved.status).toBe(200);

      const res = await p.list({ include_imports: "true" });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const body = parse.list.parse(res.body);
      expect(body.secrets.map((s) => s.secretKey)).toEqual(["OWN"]);
      expect(
        body.imports?.map((i) => [
          i.environment,
          i.secretPath,
          i.secrets.map((s) => `${s.secretKey}=${s.secretValue}`),
        ]),
      ).toEqual([
        ["prod", "/", ["API_KEY=from-prod"]],
        ["prod", "/shared", ["DEEP=deep"]],
        ["staging", "/", ["API_KEY=from-staging"]],
      ]);
      expect(body.imports?.[0]?.secrets[0]).toMatchObject({
        workspace: "",
        environment: "prod",
        secretValueHidden: false,
      });

      const without = parse.list.parse((await p.list({})).body);
      expect(without.imports ?? []).toEqual([]);
    });

    it("gives imported secrets only as the caller may see them", async () => {
      const p = await project();
      await p.secret("staging", "/", "STAGING_KEY", "s");
      await p.secret("prod", "/", "PROD_KEY", "p");
      await p.importInto({ environment: "dev" }, { environment: "staging" });
      await p.importInto({ environment: "dev" }, { environment: "prod" });
      const role = await svc.endpoint("projectRoles.create", {
        params: { projectId: p.workspaceId },
        body: {
          slug: "dev-reader",
          name: "Dev reader",
          permissions: [
            { subject: "secrets", action: ["describeSecret", "readValue"], conditions: { environment: "dev" } },
            { subject: "secrets", action: ["describeSecret"], conditions: { environment: "staging" } },
          ],
        },
      });
      expect(role.status, JSON.stringify(role.body)).toBe(200);
      const reader = await memberWithRoles(svc, p.workspaceId, ["dev-reader"], "import-reader");
      const res = await p.list({ include_imports: "true" }, reader.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const imports = parse.list.parse(res.body).imports ?? [];
      expect(
        imports.map((i) => [i.environment, i.secrets.map((s) => [s.secretKey, s.secretValue, s.secretValueHidden])]),
      ).toEqual([
        ["staging", [["STAGING_KEY", HIDDEN_SECRET_VALUE, true]]],
        ["prod", []],
      ]);
    });

    it("finds a key only an import has when reading one secret, the last import winning", async () => {
      const p = await project();
      await p.secret("staging", "/", "SHARED", "staging-value");
      await p.secret("prod", "/", "SHARED", "prod-value");
      await p.importInto({ environment: "dev" }, { environment: "staging" });
      await p.importInto({ environment: "dev" }, { environment: "prod" });
      expect((await p.get("SHARED", {})).status).toBe(404);
      const res = await p.get("SHARED", { include_imports: "true" });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(parse.get.parse(res.body).secret).toMatchObject({ secretValue: "prod-value", environment: "prod" });
    });
  });

  describe("what each import provides (secretImports.listSecrets)", () => {
    it("names each import's environment and the keys it provides", async () => {
      const p = await project();
      await p.secret("staging", "/", "A", "a");
      await p.secret("staging", "/", "B", "b");
      await p.importInto({ environment: "dev" }, { environment: "staging" });
      await p.importInto({ environment: "dev" }, { environment: "prod", path: "/not-yet" });
      const res = await svc.endpoint("secretImports.listSecrets", {
        query: { workspaceId: p.workspaceId, environment: "dev", path: "/" },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { secrets } = parse.provided.parse(res.body);
      expect(
        secrets.map((s) => [
          s.environmentInfo.slug,
          s.environmentInfo.name,
          s.secretPath,
          s.secrets.map((x) => x.secretKey),
        ]),
      ).toEqual([
        ["staging", "Staging", "/", ["A", "B"]],
        ["prod", "Production", "/not-yet", []],
      ]);
      expect(secrets[0]?.folderId).toEqual(expect.any(String));
      expect(secrets[1]?.folderId).toBeUndefined();

      const outsider = await memberWithRoles(svc, (await createProject(svc)).id, ["admin"], "provided-outsider");
      const refused = await svc.endpoint(
        "secretImports.listSecrets",
        { query: { workspaceId: p.workspaceId, environment: "dev", path: "/" } },
        { token: outsider.token },
      );
      expect(refused.status).toBe(403);
    });
  });

  describe("references (expandSecretReferences=true)", () => {
    it("expands local, cross-environment and nested references in list and get", async () => {
      const p = await project();
      await p.folder("prod", "/", "db");
      await p.secret("prod", "/db", "HOST", "db.prod");
      await p.secret("prod", "/", "PORT", "5432");
      await p.secret("dev", "/", "USER", "app");
      await p.secret("dev", "/", "ADDR", "${prod.db.HOST}:${prod.PORT}");
      await p.secret("dev", "/", "URL", "postgres://${USER}@${ADDR}/main");
      const listed = parse.list.parse((await p.list({ expandSecretReferences: "true" })).body);
      expect(Object.fromEntries(listed.secrets.map((s) => [s.secretKey, s.secretValue]))).toEqual({
        ADDR: "db.prod:5432",
        URL: "postgres://app@db.prod:5432/main",
        USER: "app",
      });
      const raw = parse.list.parse((await p.list({})).body);
      expect(raw.secrets.find((s) => s.secretKey === "URL")?.secretValue).toBe("postgres://${USER}@${ADDR}/main");
      const one = await p.get("URL", { expandSecretReferences: "true" });
      expect(parse.get.parse(one.body).secret.secretValue).toBe("postgres://app@db.prod:5432/main");
    });

    it("leaves cycles and missing references as written", async () => {
      const p = await project();
      await p.secret("dev", "/", "A", "a-${B}");
      await p.secret("dev", "/", "B", "b-${A}");
      await p.secret("dev", "/", "MISSING", "x-${NOPE}-${qa.K}-${prod.nowhere.K}");
      const listed = parse.list.parse((await p.list({ expandSecretReferences: "true" })).body);
      expect(Object.fromEntries(listed.secrets.map((s) => [s.secretKey, s.secretValue]))).toEqual({
        A: "a-b-${A}",
        B: "b-a-${B}",
        MISSING: "x-${NOPE}-${qa.K}-${prod.nowhere.K}",
      });
      expect(svc.logs()).toContain("Secret references left as written");
      expect(svc.logs()).not.toContain("a-b-");
    });

    it("judges each referenced secret by its own tags", async () => {
      const p = await project();
      const tag = await svc.endpoint("tags.create", {
        params: { workspaceId: p.workspaceId },
        body: { slug: "pci", color: "#ff0000" },
      });
      expect(tag.status, JSON.stringify(tag.body)).toBe(200);
      const tagId = endpoints["tags.create"].response.parse(tag.body).workspaceTag.id;
      const card = await svc.endpoint("secrets.create", {
        params: { secretName: "CARD_KEY" },
        body: {
          workspaceId: p.workspaceId,
          environment: "prod",
          secretPath: "/",
          secretValue: "4111",
          tagIds: [tagId],
        },
      });
      expect(card.status, JSON.stringify(card.body)).toBe(200);
      await p.secret("prod", "/", "PUBLIC", "pub");
      await p.secret("dev", "/", "USES_PUBLIC", "${prod.PUBLIC}");
      await p.secret("dev", "/", "USES_CARD", "${prod.CARD_KEY}");
      const role = await svc.endpoint("projectRoles.create", {
        params: { projectId: p.workspaceId },
        body: {
          slug: "no-pci",
          name: "No PCI",
          permissions: [
            { subject: "secrets", action: ["describeSecret", "readValue"] },
            { subject: "secrets", action: ["readValue"], inverted: true, conditions: { secretTags: { $in: ["pci"] } } },
          ],
        },
      });
      expect(role.status, JSON.stringify(role.body)).toBe(200);
      const reader = await memberWithRoles(svc, p.workspaceId, ["no-pci"], "no-pci");
      const ok = await p.get("USES_PUBLIC", { expandSecretReferences: "true" }, reader.token);
      expect(parse.get.parse(ok.body).secret.secretValue).toBe("pub");
      const refused = await p.get("USES_CARD", { expandSecretReferences: "true" }, reader.token);
      expect(refused.status).toBe(403);
      expect(errorOf(refused.body).message).toContain("secret 'CARD_KEY' in environment 'prod'");
      expect(JSON.stringify(refused.body)).not.toContain("4111");
    });

    it("refuses (403) a reference the caller may not read, in get and in list", async () => {
      const p = await project();
      await p.secret("prod", "/", "ROOT_PASSWORD", "hunter2");
      await p.secret("dev", "/", "PLAIN", "plain");
      await p.secret("dev", "/", "LEAK", "pw=${prod.ROOT_PASSWORD}");
      const role = await svc.endpoint("projectRoles.create", {
        params: { projectId: p.workspaceId },
        body: {
          slug: "dev-only",
          name: "Dev only",
          permissions: [
            { subject: "secrets", action: ["describeSecret", "readValue"], conditions: { environment: "dev" } },
          ],
        },
      });
      expect(role.status).toBe(200);
      const devOnly = await memberWithRoles(svc, p.workspaceId, ["dev-only"], "dev-only");
      const plain = await p.get("PLAIN", { expandSecretReferences: "true" }, devOnly.token);
      expect(parse.get.parse(plain.body).secret.secretValue).toBe("plain");

      const one = await p.get("LEAK", { expandSecretReferences: "true" }, devOnly.token);
      expect(one.status).toBe(403);
      expect(errorOf(one.body)).toMatchObject({
        error: "ForbiddenError",
        message:
          "You do not have permission to read secret 'ROOT_PASSWORD' in environment 'prod' at path '/', which is referenced by secret 'LEAK' in environment 'dev' at path '/'",
      });
      const many = await p.list({ expandSecretReferences: "true" }, devOnly.token);
      expect(many.status).toBe(403);
      expect(errorOf(many.body)).toMatchObject({
        message: "Failed to expand one or more secret references",
        details: [expect.stringContaining("'ROOT_PASSWORD'")],
      });
      expect(JSON.stringify(many.body)).not.toContain("hunter2");
      // Without expansion the same caller lists the folder, references as written.
      const unexpanded = parse.list.parse((await p.list({}, devOnly.token)).body);
      expect(unexpanded.secrets.find((s) => s.secretKey === "LEAK")?.secretValue).toBe("pw=${prod.ROOT_PASSWORD}");
    });

    it("expands the references of imported secrets against their own folder", async () => {
      const p = await project();
      await p.secret("staging", "/", "HOST", "staging.internal");
      await p.secret("staging", "/", "URL", "https://${HOST}/");
      await p.importInto({ environment: "dev" }, { environment: "staging" });
      const listed = parse.list.parse((await p.list({ include_imports: "true", expandSecretReferences: "true" })).body);
      expect(listed.imports?.[0]?.secrets.find((s) => s.secretKey === "URL")?.secretValue).toBe(
        "https://staging.internal/",
      );
      const one = await p.get("URL", { include_imports: "true", expandSecretReferences: "true" });
      expect(parse.get.parse(one.body).secret).toMatchObject({
        environment: "staging",
        secretValue: "https://staging.internal/",
      });
      const raw = await p.get("URL", { include_imports: "true" });
      expect(parse.get.parse(raw.body).secret.secretValue).toBe("https://${HOST}/");
    });
  });
});
