import { endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProjectPermissions } from "../domain/project-permissions.ts";
import { createSecretCore } from "../domain/secret-core.ts";
import { loadRootKey } from "../lib/root-key.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject } from "../test/project-fixtures.ts";
import { createFolder, createSecret, createTag, listSecrets, type Place } from "../test/secret-fixtures.ts";

const parseList = (body: unknown) => endpoints["secrets.list"].response.parse(body);
const parseGet = (body: unknown) => endpoints["secrets.get"].response.parse(body);
const parseUpdate = (body: unknown) => endpoints["secrets.update"].response.parse(body);
const parseVersions = (body: unknown) => endpoints["secretVersions.list"].response.parse(body);

describeEachDatabase("raw secrets", (kind) => {
  let svc: TestService;
  let projectId: string;
  let root: Place;
  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = (await createProject(svc)).id;
    root = { workspaceId: projectId, environment: "dev", secretPath: "/" };
  });
  afterAll(async () => svc?.close());

  describe("create, read, list", () => {
    it("a list answers the same timestamps as the create and the get of each secret", async () => {
      const place = { ...root, secretPath: "/" };
      const folder = await createFolder(svc, { workspaceId: projectId, environment: "dev" }, "/", "stamps");
      const inFolder = { ...place, secretPath: `/${folder.name}` };
      const created = await svc.endpoint("secrets.create", {
        params: { secretName: "STAMPED" },
        body: { ...inFolder, secretValue: "v" },
      });
      const made = endpoints["secrets.create"].response.parse(created.body).secret;
      await svc.endpoint("secrets.update", {
        params: { secretName: "STAMPED" },
        body: { ...inFolder, secretValue: "v2" },
      });
      const got = parseGet(
        (await svc.endpoint("secrets.get", { params: { secretName: "STAMPED" }, query: inFolder })).body,
      ).secret;
      const [listed] = parseList((await svc.endpoint("secrets.list", { query: inFolder })).body).secrets;
      expect(got.createdAt).toBe(made.createdAt);
      expect(listed).toMatchObject({ secretKey: "STAMPED", createdAt: got.createdAt, updatedAt: got.updatedAt });
      expect(listed?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it("creates a secret at version 1 and reads it back by name, with its path, tags and metadata", async () => {
      const tagId = await createTag(svc, projectId, "db");
      const created = await svc.endpoint("secrets.create", {
        params: { secretName: "DATABASE_URL" },
        body: {
          ...root,
          secretValue: "  postgres://db\n",
          secretComment: "primary",
          tagIds: [tagId],
          secretMetadata: [{ key: "owner", value: "team-a" }],
          secretReminderNote: "rotate",
          secretReminderRepeatDays: 30,
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const secret = endpoints["secrets.create"].response.parse(created.body).secret;
      expect(secret).toMatchObject({
        version: 1,
        secretKey: "DATABASE_URL",
        secretValue: "postgres://db\n",
        secretComment: "primary",
        workspace: projectId,
        environment: "dev",
        type: "shared",
        secretReminderNote: "rotate",
        secretReminderRepeatDays: 30,
      });
      expect(created.body).not.toHaveProperty("secret.secretValueHidden");

      const got = await svc.endpoint("secrets.get", { params: { secretName: "DATABASE_URL" }, query: root });
      expect(got.status).toBe(200);
      expect(parseGet(got.body).secret).toMatchObject({
        id: secret.id,
        secretValue: "postgres://db\n",
        secretValueHidden: false,
        secretPath: "/",
        tags: [{ id: tagId, slug: "db", name: "db" }],
        secretMetadata: [{ key: "owner", value: "team-a", isEncrypted: false }],
      });
    });

    it("refuses a second secret with the same name in the folder (400)", async () => {
      await createSecret(svc, root, "DUPLICATED");
      const again = await svc.endpoint("secrets.create", {
        params: { secretName: "DUPLICATED" },
        body: { ...root, secretValue: "x" },
      });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ message: "Secret already exists", error: "BadRequest" });
    });

    it("allows the same name in another folder and environment", async () => {
      await createFolder(svc, { workspaceId: projectId, environment: "dev" }, "/", "same");
      await createSecret(svc, root, "SAME_NAME");
      await createSecret(svc, { ...root, secretPath: "/same" }, "SAME_NAME");
      await createSecret(svc, { ...root, environment: "staging" }, "SAME_NAME");
    });

    it("lists a folder's secrets sorted by key; recursive adds the folders below with their paths", async () => {
      const place = { workspaceId: (await createProject(svc)).id, environment: "dev" };
      await createFolder(svc, place, "/", "app");
      await createFolder(svc, place, "/app", "api");
      await createSecret(svc, { ...place, secretPath: "/" }, "B_ROOT");
      await createSecret(svc, { ...place, secretPath: "/" }, "A_ROOT");
      await createSecret(svc, { ...place, secretPath: "/app" }, "IN_APP");
      await createSecret(svc, { ...place, secretPath: "/app/api" }, "IN_API");

      const flat = parseList((await listSecrets(svc, { ...place, secretPath: "/" })).body);
      expect(flat.secrets.map((s) => s.secretKey)).toEqual(["A_ROOT", "B_ROOT"]);
      expect(flat.imports).toEqual([]);
      expect(flat.secrets[0]?.secretValue).toBe("value of A_ROOT");

      const deep = parseList((await listSecrets(svc, { ...place, secretPath: "/" }, { recursive: "true" })).body);
      expect(deep.secrets.map((s) => [s.secretKey, s.secretPath]).sort()).toEqual([
        ["A_ROOT", "/"],
        ["B_ROOT", "/"],
        ["IN_API", "/app/api"],
        ["IN_APP", "/app"],
      ]);
      const below = parseList((await listSecrets(svc, { ...place, secretPath: "/app" }, { recursive: "true" })).body);
      expect(below.secrets.map((s) => s.secretKey).sort()).toEqual(["IN_API", "IN_APP"]);
    });

    it("serves the v4 paths with projectId, and a project named by slug", async () => {
      const project = await createProject(svc);
      const created = await svc.endpoint("secrets.createV4", {
        params: { secretName: "REDIS_URL" },
        body: { projectId: project.id, environment: "dev", secretValue: "redis://x" },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const listed = await svc.endpoint("secrets.listV4", {
        query: { projectId: project.id, environment: "dev", secretPath: "/" },
      });
      expect(parseList(listed.body).secrets.map((s) => s.secretKey)).toEqual(["REDIS_URL"]);
      const bySlug = await svc.endpoint("secrets.get", {
        params: { secretName: "REDIS_URL" },
        query: { workspaceSlug: project.slug, environment: "dev" },
      });
      expect(parseGet(bySlug.body).secret.secretValue).toBe("redis://x");
      const gotV4 = await svc.endpoint("secrets.getV4", {
        params: { secretName: "REDIS_URL" },
        query: { projectId: project.id, environment: "dev" },
      });
      expect(gotV4.status).toBe(200);
      const updated = await svc.endpoint("secrets.updateV4", {
        params: { secretName: "REDIS_URL" },
        body: { projectId: project.id, environment: "dev", secretValue: "redis://y" },
      });
      expect(parseUpdate(updated.body).secret.version).toBe(2);
      const deleted = await svc.endpoint("secrets.deleteV4", {
        params: { secretName: "REDIS_URL" },
        body: { projectId: project.id, environment: "dev" },
      });
      expect(deleted.status).toBe(200);
    });

    it("filters by tag slugs", async () => {
      const place = { workspaceId: (await createProject(svc)).id, environment: "dev", secretPath: "/" };
      const red = await createTag(svc, place.workspaceId, "red");
      const blue = await createTag(svc, place.workspaceId, "blue");
      await createSecret(svc, place, "RED_ONE", { tagIds: [red] });
      await createSecret(svc, place, "BLUE_ONE", { tagIds: [blue] });
      await createSecret(svc, place, "BOTH", { tagIds: [red, blue] });
      await createSecret(svc, place, "NONE");
      const reds = parseList((await listSecrets(svc, place, { tagSlugs: "red" })).body);
      expect(reds.secrets.map((s) => s.secretKey)).toEqual(["BOTH", "RED_ONE"]);
      const any = parseList((await listSecrets(svc, place, { tagSlugs: "red,blue" })).body);
      expect(any.secrets.map((s) => s.secretKey)).toEqual(["BLUE_ONE", "BOTH", "RED_ONE"]);
    });

    it("sends lists exactly as their response schema would shape them (they skip a second parse)", async () => {
      const place = { workspaceId: (await createProject(svc)).id, environment: "dev", secretPath: "/" };
      const tag = await createTag(svc, place.workspaceId, "shaped");
      await createFolder(svc, place, "/", "below");
      await createSecret(svc, place, "PLAIN");
      await createSecret(svc, place, "RICH", {
        tagIds: [tag],
        secretComment: "note",
        secretMetadata: [{ key: "k", value: "v" }],
        secretReminderNote: "r",
        secretReminderRepeatDays: 3,
        skipMultilineEncoding: true,
      });
      await createSecret(svc, { ...place, secretPath: "/below" }, "DEEP");
      const variants: Record<string, string>[] = [
        {},
        { recursive: "true" },
        { viewSecretValue: "false" },
        { include_imports: "true" },
        { includeValueDigests: "true", viewSecretValue: "false" },
        { includeValueDigests: "true", recursive: "true" },
      ];
      for (const extra of variants) {
        const res = await listSecrets(svc, place, extra);
        expect(res.status).toBe(200);
        expect(endpoints["secrets.list"].response.parse(res.body)).toEqual(res.body);
        expect((res.body as { secrets: unknown[] }).secrets.length).toBeGreaterThan(1);
      }
    });

    it("reads one secret by id with its folder path; 404 for an unknown id", async () => {
      const place = { workspaceId: projectId, environment: "dev", secretPath: "/by-id" };
      await createFolder(svc, place, "/", "by-id");
      const id = await createSecret(svc, place, "BY_ID", { secretComment: "found" });
      const res = await svc.endpoint("secrets.getById", { params: { secretId: id } });
      expect(res.status).toBe(200);
      expect(endpoints["secrets.getById"].response.parse(res.body).secret).toMatchObject({
        id,
        secretKey: "BY_ID",
        secretValue: "value of BY_ID",
        secretComment: "found",
        secretPath: "/by-id",
        secretValueHidden: false,
      });
      const missing = await svc.endpoint("secrets.getById", {
        params: { secretId: "00000000-0000-4000-8000-000000000000" },
      });
      expect(missing.status).toBe(404);
    });

    it("masks values when viewSecretValue=false", async () => {
      await createSecret(svc, root, "MASKED");
      const res = parseList((await listSecrets(svc, root, { viewSecretValue: "false" })).body);
      const masked = res.secrets.find((s) => s.secretKey === "MASKED");
      expect(masked).toMatchObject({ secretValue: "<hidden-by-infisical>", secretValueHidden: true });
      const one = await svc.endpoint("secrets.get", {
        params: { secretName: "MASKED" },
        query: { ...root, viewSecretValue: "false" },
      });
      expect(parseGet(one.body).secret).toMatchObject({
        secretValue: "<hidden-by-infisical>",
        secretValueHidden: true,
      });
    });
  });

  describe("folder values for reference expansion", () => {
    it("gives every shared secret of a folder with its value and tags; undefined for a missing folder", async () => {
      const project = await createProject(svc);
      const place = { workspaceId: project.id, environment: "dev", secretPath: "/" };
      const tag = await createTag(svc, project.id, "ref");
      await createSecret(svc, place, "HOST", { secretValue: "db.internal", tagIds: [tag] });
      await createSecret(svc, place, "PORT", { secretValue: "5432" });
      // A second core over the same database and root key reads what the service wrote.
      const core = createSecretCore({
        db: svc.app.db,
        dialect: svc.info.dialect,
        projectPermissions: createProjectPermissions({ db: svc.app.db }),
        rootKey: loadRootKey(svc.config),
      });
      const values = await core.secrets.folderValues(project.id, "dev", "/");
      expect(values && Object.fromEntries(values)).toEqual({
        HOST: { value: "db.internal", tags: ["ref"] },
        PORT: { value: "5432", tags: [] },
      });
      expect(await core.secrets.folderValues(project.id, "dev", "/missing")).toBeUndefined();
      expect(await core.secrets.folderValues(project.id, "nope", "/")).toBeUndefined();
    });
  });

  describe("update", () => {
    it("changes value, comment, reminder, metadata, multiline flag and tags, each change a new version", async () => {
      await createSecret(svc, root, "API_KEY", { secretComment: "first" });
      const tag = await createTag(svc, projectId, "api");
      const res = await svc.endpoint("secrets.update", {
        params: { secretName: "API_KEY" },
        body: {
          ...root,
          secretValue: "second",
          secretComment: "changed",
          skipMultilineEncoding: true,
          secretReminderNote: "soon",
          secretReminderRepeatDays: 7,
          secretReminderRecipients: ["someone"],
          metadata: { legacy: "yes" },
          tagIds: [tag],
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(parseUpdate(res.body).secret).toMatchObject({
        version: 2,
        secretValue: "second",
        secretComment: "changed",
        skipMultilineEncoding: true,
        secretReminderNote: "soon",
        secretReminderRepeatDays: 7,
        secretValueHidden: false,
      });
      const got = parseGet(
        (await svc.endpoint("secrets.get", { params: { secretName: "API_KEY" }, query: root })).body,
      ).secret;
      expect(got).toMatchObject({
        secretValue: "second",
        secretComment: "changed",
        version: 2,
        tags: [{ slug: "api" }],
        secretMetadata: [{ key: "legacy", value: "yes" }],
      });
      // Leaving tagIds out keeps the tags; an empty list removes them.
      await svc.endpoint("secrets.update", { params: { secretName: "API_KEY" }, body: { ...root, secretValue: "3" } });
      const kept = parseGet(
        (await svc.endpoint("secrets.get", { params: { secretName: "API_KEY" }, query: root })).body,
      );
      expect(kept.secret.tags).toHaveLength(1);
      await svc.endpoint("secrets.update", { params: { secretName: "API_KEY" }, body: { ...root, tagIds: [] } });
      const cleared = parseGet(
        (await svc.endpoint("secrets.get", { params: { secretName: "API_KEY" }, query: root })).body,
      );
      expect(cleared.secret).toMatchObject({ tags: [], version: 4, secretValue: "3", secretComment: "changed" });
    });

    it("renames; the answer echoes what was sent ('' for what was not); the old name is gone", async () => {
      await createSecret(svc, root, "OLD_NAME", { secretComment: "kept" });
      const res = await svc.endpoint("secrets.update", {
        params: { secretName: "OLD_NAME" },
        body: { ...root, newSecretName: "NEW_NAME" },
      });
      expect(res.status).toBe(200);
      expect(parseUpdate(res.body).secret).toMatchObject({
        secretKey: "NEW_NAME",
        secretValue: "",
        secretComment: "",
        version: 2,
      });
      const got = parseGet(
        (await svc.endpoint("secrets.get", { params: { secretName: "NEW_NAME" }, query: root })).body,
      );
      expect(got.secret).toMatchObject({ secretValue: "value of OLD_NAME", secretComment: "kept" });
      const old = await svc.endpoint("secrets.get", { params: { secretName: "OLD_NAME" }, query: root });
      expect(old.status).toBe(404);
    });

    it("a rename rewrites the references to the secret in the project's other secrets, each a new version", async () => {
      const project = await createProject(svc);
      const dev = { workspaceId: project.id, environment: "dev", secretPath: "/" };
      await createFolder(svc, dev, "/", "sub");
      await createSecret(svc, dev, "OLD_KEY", { secretValue: "target" });
      await createSecret(svc, dev, "SAME_FOLDER", { secretValue: "${OLD_KEY}-x and ${OLD_KEY}" });
      await createSecret(svc, { ...dev, environment: "prod" }, "OTHER_ENV", { secretValue: "${dev.OLD_KEY}" });
      await createSecret(svc, { ...dev, secretPath: "/sub" }, "OTHER_FOLDER", { secretValue: "${OLD_KEY}" });
      await createSecret(svc, { ...dev, secretPath: "/sub" }, "BY_PATH", {
        secretValue: "${dev.OLD_KEY}/${dev.sub.X}",
      });
      const res = await svc.endpoint("secrets.update", {
        params: { secretName: "OLD_KEY" },
        body: { ...dev, newSecretName: "NEW_KEY" },
      });
      expect(res.status).toBe(200);
      const read = async (place: Place, name: string) =>
        parseGet((await svc.endpoint("secrets.get", { params: { secretName: name }, query: place })).body).secret;
      expect(await read(dev, "SAME_FOLDER")).toMatchObject({ secretValue: "${NEW_KEY}-x and ${NEW_KEY}", version: 2 });
      expect(await read({ ...dev, environment: "prod" }, "OTHER_ENV")).toMatchObject({
        secretValue: "${dev.NEW_KEY}",
        version: 2,
      });
      expect(await read({ ...dev, secretPath: "/sub" }, "BY_PATH")).toMatchObject({
        secretValue: "${dev.NEW_KEY}/${dev.sub.X}",
        version: 2,
      });
      // ${OLD_KEY} in another folder means that folder's OLD_KEY: left as it was.
      expect(await read({ ...dev, secretPath: "/sub" }, "OTHER_FOLDER")).toMatchObject({
        secretValue: "${OLD_KEY}",
        version: 1,
      });
    });

    it("refuses a rename onto a name the folder already has (400), changing nothing", async () => {
      await createSecret(svc, root, "TAKEN_A");
      await createSecret(svc, root, "TAKEN_B");
      const res = await svc.endpoint("secrets.update", {
        params: { secretName: "TAKEN_A" },
        body: { ...root, newSecretName: "TAKEN_B", secretValue: "lost?" },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: "Secret with the new name already exists", error: "BadRequest" });
      const a = parseGet((await svc.endpoint("secrets.get", { params: { secretName: "TAKEN_A" }, query: root })).body);
      expect(a.secret).toMatchObject({ secretValue: "value of TAKEN_A", version: 1 });
    });

    it("answers 404 for a secret that does not exist, 400 for a personal rename and for an empty new name", async () => {
      const missing = await svc.endpoint("secrets.update", {
        params: { secretName: "NOPE" },
        body: { ...root, secretValue: "x" },
      });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ message: "Secret with name NOPE not found", error: "NotFound" });
      const personal = await svc.endpoint("secrets.update", {
        params: { secretName: "NOPE" },
        body: { ...root, type: "personal", newSecretName: "X" },
      });
      expect(personal.status).toBe(400);
      const empty = await svc.endpoint("secrets.update", {
        params: { secretName: "NOPE" },
        body: { ...root, newSecretName: "" },
      });
      expect(empty.status).toBe(422);
    });

    it("refuses tag ids that are not the project's (404 Tag not found)", async () => {
      await createSecret(svc, root, "TAGGED");
      const other = await createProject(svc);
      const foreign = await createTag(svc, other.id, "foreign");
      const res = await svc.endpoint("secrets.update", {
        params: { secretName: "TAGGED" },
        body: { ...root, tagIds: [foreign] },
      });
      expect(res.status).toBe(404);
      expect((res.body as { message: string }).message).toMatch(/^Tag not found/);
      const create = await svc.endpoint("secrets.create", {
        params: { secretName: "TAGGED_2" },
        body: { ...root, secretValue: "v", tagIds: [foreign] },
      });
      expect(create.status).toBe(404);
    });
  });

  describe("versions", () => {
    it("lists every version newest first with its value, comment and author; restoring is an update with an old value", async () => {
      const id = await createSecret(svc, root, "VERSIONED", { secretValue: "one", secretComment: "c1" });
      for (const [value, comment] of [
        ["two", "c2"],
        ["three", "c3"],
      ]) {
        const res = await svc.endpoint("secrets.update", {
          params: { secretName: "VERSIONED" },
          body: { ...root, secretValue: value, secretComment: comment },
        });
        expect(res.status).toBe(200);
      }
      const listed = await svc.endpoint("secretVersions.list", {
        params: { secretId: id },
        query: { offset: "0", limit: "10" },
      });
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      const versions = parseVersions(listed.body).secretVersions;
      expect(versions.map((v) => [v.version, v.secretValue, v.secretComment])).toEqual([
        [3, "three", "c3"],
        [2, "two", "c2"],
        [1, "one", "c1"],
      ]);
      expect(versions[0]?.actor).toMatchObject({ actorType: "identity", actorId: svc.info.adminIdentityId });
      expect(new Set(versions.map((v) => v.id)).size).toBe(3);

      const page = parseVersions(
        (await svc.endpoint("secretVersions.list", { params: { secretId: id }, query: { offset: "1", limit: "1" } }))
          .body,
      );
      expect(page.secretVersions.map((v) => v.version)).toEqual([2]);

      // Restore version 1: an update with its value and comment makes version 4.
      const old = versions[2];
      const restored = await svc.endpoint("secrets.update", {
        params: { secretName: "VERSIONED" },
        body: { ...root, secretValue: old?.secretValue, secretComment: old?.secretComment },
      });
      expect(parseUpdate(restored.body).secret.version).toBe(4);
      const now = parseGet(
        (await svc.endpoint("secrets.get", { params: { secretName: "VERSIONED" }, query: root })).body,
      );
      expect(now.secret).toMatchObject({ secretValue: "one", secretComment: "c1", version: 4 });

      // An old version by number.
      const v2 = parseGet(
        (await svc.endpoint("secrets.get", { params: { secretName: "VERSIONED" }, query: { ...root, version: "2" } }))
          .body,
      );
      expect(v2.secret).toMatchObject({ secretValue: "two", version: 2, id });
      const v9 = await svc.endpoint("secrets.get", {
        params: { secretName: "VERSIONED" },
        query: { ...root, version: "9" },
      });
      expect(v9.status).toBe(404);
    });

    it("answers 404 for the versions of a secret that does not exist", async () => {
      const res = await svc.endpoint("secretVersions.list", {
        params: { secretId: "00000000-0000-4000-8000-000000000000" },
        query: { offset: "0", limit: "10" },
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        message: "Secret with ID '00000000-0000-4000-8000-000000000000' not found",
      });
    });

    it("gives 50 concurrent updates of one secret 50 distinct, increasing versions, none lost", async () => {
      const id = await createSecret(svc, root, "RACED", { secretValue: "start" });
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          svc.endpoint("secrets.update", {
            params: { secretName: "RACED" },
            body: { ...root, secretValue: `update ${i}` },
          }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
      const answered = results.map((r) => parseUpdate(r.body).secret.version).sort((a, b) => a - b);
      expect(answered).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
      const versions = parseVersions(
        (await svc.endpoint("secretVersions.list", { params: { secretId: id }, query: { offset: "0", limit: "100" } }))
          .body,
      ).secretVersions;
      expect(versions.map((v) => v.version)).toEqual(Array.from({ length: 51 }, (_, i) => 51 - i));
      // Each update's value is in exactly one version: nothing was lost or written twice.
      const values = versions.map((v) => v.secretValue).sort();
      expect(values).toEqual(["start", ...Array.from({ length: 50 }, (_, i) => `update ${i}`)].sort());
      const live = parseGet((await svc.endpoint("secrets.get", { params: { secretName: "RACED" }, query: root })).body);
      expect(live.secret.version).toBe(51);
      expect(live.secret.secretValue).toBe(versions[0]?.secretValue);
    });
  });

  describe("delete and the 4xx answers", () => {
    it("deletes a secret and answers with it; a second delete is 404", async () => {
      await createSecret(svc, root, "GONE", { secretComment: "bye" });
      const res = await svc.endpoint("secrets.delete", { params: { secretName: "GONE" }, body: root });
      expect(res.status).toBe(200);
      expect(endpoints["secrets.delete"].response.parse(res.body).secret).toMatchObject({
        secretKey: "GONE",
        secretValue: "value of GONE",
        secretComment: "bye",
        secretValueHidden: false,
      });
      const again = await svc.endpoint("secrets.delete", { params: { secretName: "GONE" }, body: root });
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ message: "Secret not found", error: "NotFound" });
    });

    it("an environment or project deleted takes its folders, secrets, versions and data key with it", async () => {
      const project = await createProject(svc);
      const place = { workspaceId: project.id, environment: "staging", secretPath: "/" };
      await createFolder(svc, place, "/", "inner");
      await createSecret(svc, { ...place, secretPath: "/inner" }, "IN_STAGING");
      await createSecret(svc, { ...place, environment: "dev" }, "IN_DEV");
      const db = svc.app.db;
      const count = async (table: "secrets" | "secret_versions" | "project_data_keys") =>
        (await db.selectFrom(table).select("project_id").where("project_id", "=", project.id).execute()).length;
      const staging = project.environments.find((e) => e.slug === "staging");
      const removed = await svc.endpoint("environments.delete", {
        params: { workspaceId: project.id, id: staging?.id ?? "" },
      });
      expect(removed.status).toBe(200);
      expect(await count("secrets")).toBe(1);
      expect(await count("secret_versions")).toBe(1);
      expect(await count("project_data_keys")).toBe(1);
      const gone = await svc.endpoint("projects.delete", { params: { workspaceId: project.id } });
      expect(gone.status).toBe(200);
      expect(await count("secrets")).toBe(0);
      expect(await count("secret_versions")).toBe(0);
      expect(await count("project_data_keys")).toBe(0);
    });

    it("answers a missing secret with Infisical's 404", async () => {
      const res = await svc.endpoint("secrets.get", { params: { secretName: "DOES_NOT_EXIST" }, query: root });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ message: "Secret with name 'DOES_NOT_EXIST' not found", error: "NotFound" });
    });

    it("answers a path that is not a folder with 404, an unknown environment with 404", async () => {
      const path = await listSecrets(svc, { ...root, secretPath: "/nowhere" });
      expect(path.status).toBe(404);
      expect(path.body).toMatchObject({
        message: "Folder with path '/nowhere' in environment with slug 'dev' not found",
      });
      const env = await listSecrets(svc, { ...root, environment: "nope" });
      expect(env.status).toBe(404);
      const create = await svc.endpoint("secrets.create", {
        params: { secretName: "X" },
        body: { ...root, secretPath: "/nowhere", secretValue: "x" },
      });
      expect(create.status).toBe(404);
    });

    it("answers a list without project or environment with 400, a bad body with 422", async () => {
      const noEnv = await svc.endpoint("secrets.list", { query: { workspaceId: projectId } });
      expect(noEnv.status).toBe(400);
      expect(noEnv.body).toMatchObject({ message: "Missing workspace id or environment" });
      const noProject = await svc.endpoint("secrets.list", { query: { environment: "dev" } });
      expect(noProject.status).toBe(400);
      const badValue = await svc.endpoint("secrets.create", {
        params: { secretName: "X" },
        body: { environment: "dev", secretValue: 1 },
      });
      expect(badValue.status).toBe(422);
      const badName = await svc.call("POST", "/api/v3/secrets/raw/A%3AB", { body: { ...root, secretValue: "x" } });
      expect(badName.status).toBe(422);
      const personal = await svc.endpoint("secrets.create", {
        params: { secretName: "MINE" },
        body: { ...root, secretValue: "x", type: "personal" },
      });
      expect(personal.status).toBe(400);
      expect(personal.body).toMatchObject({ message: "Must be user to create personal secret" });
    });

    it("answers a project of another org with 404, a project the caller is not a member of with 403", async () => {
      const unknown = await listSecrets(svc, { ...root, workspaceId: "00000000-0000-4000-8000-000000000000" });
      expect(unknown.status).toBe(404);
      const bySlug = await svc.endpoint("secrets.list", {
        query: { workspaceSlug: "no-such-project", environment: "dev" },
      });
      expect(bySlug.status).toBe(404);
      const noToken = await listSecrets(svc, root, {}, { token: null });
      expect(noToken.status).toBe(401);
    });
  });
});
