import { endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject, memberWithRoles } from "../test/project-fixtures.ts";
import { createFolder, createSecret, createTag, listSecrets } from "../test/secret-fixtures.ts";

const parseFolders = (body: unknown) => endpoints["folders.list"].response.parse(body).folders;

describeEachDatabase("folders and tags", (kind) => {
  let svc: TestService;
  let projectId: string;
  let dev: { workspaceId: string; environment: string };
  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = (await createProject(svc)).id;
    dev = { workspaceId: projectId, environment: "dev" };
  });
  afterAll(async () => svc?.close());

  describe("folders", () => {
    it("creates a folder with its full path, making missing parents on the way", async () => {
      const app = await createFolder(svc, dev, "/", "app");
      expect(app).toMatchObject({ name: "app", path: "/app", version: 1, isReserved: false, description: null });
      const deep = await svc.endpoint("folders.create", { body: { ...dev, path: "/made/on/way", name: "leaf" } });
      expect(deep.status, JSON.stringify(deep.body)).toBe(200);
      expect(endpoints["folders.create"].response.parse(deep.body).folder.path).toBe("/made/on/way/leaf");
      const onWay = parseFolders((await svc.endpoint("folders.list", { query: { ...dev, path: "/made/on" } })).body);
      expect(onWay.map((f) => f.name)).toEqual(["way"]);
      // The CLI's `directory` names the parent too.
      const legacy = await svc.endpoint("folders.create", { body: { ...dev, directory: "/app", name: "cli" } });
      expect(endpoints["folders.create"].response.parse(legacy.body).folder.path).toBe("/app/cli");
    });

    it("refuses a folder that exists (400) and a name with other characters (422)", async () => {
      await createFolder(svc, dev, "/", "twice");
      const again = await svc.endpoint("folders.create", { body: { ...dev, path: "/", name: "twice" } });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ message: "Folder with name 'twice' already exists in path '/'" });
      const bad = await svc.endpoint("folders.create", { body: { ...dev, path: "/", name: "a b" } });
      expect(bad.status).toBe(422);
      const env = await svc.endpoint("folders.create", { body: { ...dev, environment: "nope", name: "x" } });
      expect(env.status).toBe(404);
      expect(env.body).toMatchObject({
        message: `Environment with slug 'nope' in project with ID '${projectId}' not found`,
      });
    });

    it("lists direct children by name, every descendant with its relative path when recursive, [] for a missing path", async () => {
      const place = { workspaceId: (await createProject(svc)).id, environment: "dev" };
      await createFolder(svc, place, "/", "b");
      await createFolder(svc, place, "/", "a");
      await createFolder(svc, place, "/a", "inner");
      const top = parseFolders((await svc.endpoint("folders.list", { query: { ...place, path: "/" } })).body);
      expect(top.map((f) => f.name)).toEqual(["a", "b"]);
      const all = parseFolders(
        (await svc.endpoint("folders.list", { query: { ...place, path: "/", recursive: "true" } })).body,
      );
      expect(all.map((f) => f.relativePath).sort()).toEqual(["/a", "/a/inner", "/b"]);
      const none = await svc.endpoint("folders.list", { query: { ...place, path: "/missing" } });
      expect(none.status).toBe(200);
      expect(parseFolders(none.body)).toEqual([]);
    });

    it("reads a folder by id with its path, project and environment; 404 for an unknown id", async () => {
      const folder = await createFolder(svc, dev, "/", "byid");
      const res = await svc.endpoint("folders.get", { params: { folderId: folder.id } });
      expect(res.status).toBe(200);
      expect(endpoints["folders.get"].response.parse(res.body).folder).toMatchObject({
        id: folder.id,
        path: "/byid",
        projectId,
        environment: { envSlug: "dev", envName: "Development" },
      });
      const missing = await svc.endpoint("folders.get", {
        params: { folderId: "00000000-0000-4000-8000-000000000000" },
      });
      expect(missing.status).toBe(404);
    });

    it("renames a folder by id or by name (version + 1); its secrets follow; a taken name is 400", async () => {
      const folder = await createFolder(svc, dev, "/", "before");
      await createFolder(svc, dev, "/", "other");
      await createSecret(svc, { ...dev, secretPath: "/before" }, "INSIDE");
      const res = await svc.endpoint("folders.update", {
        params: { folderId: folder.id },
        body: { ...dev, path: "/", name: "after" },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(endpoints["folders.update"].response.parse(res.body).folder).toMatchObject({
        name: "after",
        path: "/after",
        version: 2,
      });
      const moved = await listSecrets(svc, { ...dev, secretPath: "/after" });
      expect(endpoints["secrets.list"].response.parse(moved.body).secrets.map((s) => s.secretKey)).toEqual(["INSIDE"]);
      const byName = await svc.endpoint("folders.update", {
        params: { folderId: "after" },
        body: { ...dev, path: "/", name: "again" },
      });
      expect(byName.status).toBe(200);
      const taken = await svc.endpoint("folders.update", {
        params: { folderId: folder.id },
        body: { ...dev, path: "/", name: "other" },
      });
      expect(taken.status).toBe(400);
      expect(taken.body).toMatchObject({ message: "Folder with specified name already exists" });
      const missing = await svc.endpoint("folders.update", {
        params: { folderId: "00000000-0000-4000-8000-000000000000" },
        body: { ...dev, path: "/", name: "x" },
      });
      expect(missing.status).toBe(404);
      const noParent = await svc.endpoint("folders.update", {
        params: { folderId: folder.id },
        body: { ...dev, path: "/nowhere", name: "x" },
      });
      expect(noParent.status).toBe(404);
    });

    it("deletes a folder by id or name with everything in it; 404 when it is not there", async () => {
      const folder = await createFolder(svc, dev, "/", "doomed");
      await createFolder(svc, dev, "/doomed", "child");
      await createSecret(svc, { ...dev, secretPath: "/doomed/child" }, "DEEP");
      const res = await svc.endpoint("folders.delete", {
        params: { folderId: folder.id },
        body: { ...dev, path: "/" },
      });
      expect(res.status).toBe(200);
      expect(endpoints["folders.delete"].response.parse(res.body).folder).toMatchObject({ id: folder.id });
      const rows = await svc.app.db.selectFrom("secrets").select("id").where("key", "=", "DEEP").execute();
      expect(rows).toEqual([]);
      await createFolder(svc, dev, "/", "named");
      const byName = await svc.endpoint("folders.delete", {
        params: { folderId: "named" },
        body: { ...dev, path: "/" },
      });
      expect(byName.status).toBe(200);
      const again = await svc.endpoint("folders.delete", {
        params: { folderId: folder.id },
        body: { ...dev, path: "/" },
      });
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ message: `Folder with ID '${folder.id}' not found` });
    });

    it("gives environments made after the project their root folder too", async () => {
      const created = await svc.endpoint("environments.create", {
        params: { workspaceId: projectId },
        body: { name: "QA", slug: "qa" },
      });
      expect(created.status).toBe(200);
      await createSecret(svc, { workspaceId: projectId, environment: "qa", secretPath: "/" }, "IN_QA");
      await createFolder(svc, { workspaceId: projectId, environment: "qa" }, "/", "sub");
    });

    it("checks secret-folders permissions by environment and path", async () => {
      const viewer = await memberWithRoles(svc, projectId, ["viewer"], "folder-viewer");
      const res = await svc.endpoint("folders.create", { body: { ...dev, name: "nope" } }, { token: viewer.token });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: "PermissionDenied" });
      const list = await svc.endpoint("folders.list", { query: { ...dev, path: "/" } }, { token: viewer.token });
      expect(list.status).toBe(200);
      const outsider = await memberWithRoles(svc, (await createProject(svc)).id, ["admin"], "outsider");
      const foreign = await svc.endpoint("folders.list", { query: { ...dev, path: "/" } }, { token: outsider.token });
      expect(foreign.status).toBe(403);
      expect(foreign.body).toMatchObject({ error: "ProjectMembershipNotFound" });
    });
  });

  describe("tags", () => {
    it("creates, lists oldest first and deletes tags; secrets lose a deleted tag", async () => {
      const place = { workspaceId: (await createProject(svc)).id, environment: "dev", secretPath: "/" };
      const first = await createTag(svc, place.workspaceId, "first");
      await createTag(svc, place.workspaceId, "second");
      const list = await svc.endpoint("tags.list", { params: { workspaceId: place.workspaceId } });
      expect(list.status).toBe(200);
      const tags = endpoints["tags.list"].response.parse(list.body).workspaceTags;
      expect(tags.map((t) => t.slug)).toEqual(["first", "second"]);
      expect(tags[0]).toMatchObject({ projectId: place.workspaceId, color: "#aabbcc", createdByActorType: "identity" });

      await createSecret(svc, place, "TAGGED", { tagIds: [first] });
      const deleted = await svc.endpoint("tags.delete", { params: { workspaceId: place.workspaceId, tagId: first } });
      expect(deleted.status).toBe(200);
      expect(endpoints["tags.delete"].response.parse(deleted.body).workspaceTag.slug).toBe("first");
      const secret = await svc.endpoint("secrets.get", { params: { secretName: "TAGGED" }, query: place });
      expect(endpoints["secrets.get"].response.parse(secret.body).secret.tags).toEqual([]);
      const again = await svc.endpoint("tags.delete", { params: { workspaceId: place.workspaceId, tagId: first } });
      expect(again.status).toBe(404);
    });

    it("refuses a slug the project has (400) and a malformed slug (422)", async () => {
      await createTag(svc, projectId, "dupe");
      const again = await svc.endpoint("tags.create", {
        params: { workspaceId: projectId },
        body: { slug: "dupe", color: "" },
      });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ message: "Tag already exists" });
      const bad = await svc.endpoint("tags.create", {
        params: { workspaceId: projectId },
        body: { slug: "Not A Slug", color: "x" },
      });
      expect(bad.status).toBe(422);
    });

    it("checks tags permissions", async () => {
      const viewer = await memberWithRoles(svc, projectId, ["viewer"], "tag-viewer");
      const list = await svc.endpoint("tags.list", { params: { workspaceId: projectId } }, { token: viewer.token });
      expect(list.status).toBe(200);
      const create = await svc.endpoint(
        "tags.create",
        { params: { workspaceId: projectId }, body: { slug: "viewer-made", color: "x" } },
        { token: viewer.token },
      );
      expect(create.status).toBe(403);
    });
  });
});
