import { endpoints, ErrorBodySchema, type SecretImport } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPLICATION_NOT_DONE_STATUS } from "../domain/secret-import-service.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject, memberWithRoles } from "../test/project-fixtures.ts";
import { folderAt } from "../test/secret-import-fixtures.ts";

const parse = {
  one: endpoints["secretImports.create"].response,
  list: endpoints["secretImports.list"].response,
};
const errorOf = (body: unknown) => ErrorBodySchema.parse(body);

describeEachDatabase("secret imports", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind });
  });
  afterAll(async () => svc?.close());

  /** A fresh project, and calls about one of its folders (dev:/ unless told). */
  async function projectWithImports() {
    const project = await createProject(svc);
    const workspaceId = project.id;
    const folder = (environment = "dev", path = "/") => ({ workspaceId, environment, path });
    const create = (
      source: { environment: string; path?: string },
      into = folder(),
      token?: string,
      extra: Record<string, unknown> = {},
    ) =>
      svc.endpoint(
        "secretImports.create",
        { body: { ...into, import: { path: "/", ...source }, ...extra } },
        token === undefined ? {} : { token },
      );
    const add = async (source: { environment: string; path?: string }, into = folder()) => {
      const res = await create(source, into);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return parse.one.parse(res.body).secretImport;
    };
    const list = async (into = folder()) => {
      const res = await svc.endpoint("secretImports.list", { query: into });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return parse.list.parse(res.body).secretImports;
    };
    const move = (id: string, body: Record<string, unknown>, into = folder(), token?: string) =>
      svc.endpoint(
        "secretImports.update",
        { params: { secretImportId: id }, body: { ...into, import: body } },
        token === undefined ? {} : { token },
      );
    const remove = (id: string, into = folder(), token?: string) =>
      svc.endpoint(
        "secretImports.delete",
        { params: { secretImportId: id }, body: into },
        token === undefined ? {} : { token },
      );
    const envId = (slug: string) => project.environments.find((e) => e.slug === slug)?.id as string;
    return { project, workspaceId, folder, create, add, list, move, remove, envId };
  }

  const order = (imports: SecretImport[]) => imports.map((i) => `${i.importEnv.slug}:${i.importPath}@${i.position}`);

  describe("happy paths", () => {
    it("creates imports after the last one, lists them in position order, with Infisical's envelopes", async () => {
      const p = await projectWithImports();
      const res = await p.create({ environment: "staging" });
      expect(res.status).toBe(200);
      const body = parse.one.parse(res.body);
      expect(body.message).toBe("Successfully created secret import");
      expect(body.secretImport).toMatchObject({
        version: 1,
        importPath: "/",
        position: 1,
        isReplication: false,
        isReplicationSuccess: null,
        replicationStatus: null,
        lastReplicated: null,
        isReserved: false,
        importEnv: { name: "Staging", slug: "staging", id: p.envId("staging") },
      });
      await folderAt(svc, p.workspaceId, "prod", "/shared/db");
      const second = await p.add({ environment: "prod", path: "/shared/db/" });
      expect(second.position).toBe(2);
      expect(second.importPath).toBe("/shared/db");
      expect(second.folderId).toBe(body.secretImport.folderId);

      const listed = await svc.endpoint("secretImports.list", { query: p.folder() });
      expect(parse.list.parse(listed.body).message).toBe("Successfully fetched secret imports");
      expect(order(await p.list())).toEqual(["staging:/@1", "prod:/shared/db@2"]);
    });

    it("imports into a sub-folder, and may name a source folder that does not exist yet", async () => {
      const p = await projectWithImports();
      await folderAt(svc, p.workspaceId, "dev", "/app/api");
      const into = p.folder("dev", "/app/api");
      await p.add({ environment: "prod", path: "/not/yet" }, into);
      expect(order(await p.list(into))).toEqual(["prod:/not/yet@1"]);
      expect(await p.list()).toEqual([]);
    });

    it("keeps positions 1..n through several moves, shifting those in between", async () => {
      const p = await projectWithImports();
      const ids: Record<string, string> = {};
      for (const name of ["a", "b", "c", "d", "e"]) {
        await folderAt(svc, p.workspaceId, "staging", `/${name}`);
        ids[name] = (await p.add({ environment: "staging", path: `/${name}` })).id;
      }
      const expectOrder = async (names: string) => {
        const listed = await p.list();
        expect(listed.map((i) => i.importPath.slice(1)).join("")).toBe(names);
        expect(listed.map((i) => i.position)).toEqual([1, 2, 3, 4, 5]);
      };
      const moveTo = async (name: string, position: number) => {
        const res = await p.move(ids[name] as string, { position });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const { message, secretImport } = endpoints["secretImports.update"].response.parse(res.body);
        expect(message).toBe("Successfully updated secret import");
        return secretImport;
      };
      expect((await moveTo("e", 1)).position).toBe(1);
      await expectOrder("eabcd");
      await moveTo("a", 4);
      await expectOrder("ebcad");
      await moveTo("d", 3);
      await expectOrder("ebdca");
      await moveTo("b", 2); // its own place: nothing moves
      await expectOrder("ebdca");
      // Past the end lands at the end.
      expect((await moveTo("e", 99)).position).toBe(5);
      await expectOrder("bdcae");
    });

    it("changes an import's source", async () => {
      const p = await projectWithImports();
      const created = await p.add({ environment: "staging" });
      await folderAt(svc, p.workspaceId, "prod", "/x");
      const res = await p.move(created.id, { environment: "prod", path: "/x" });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(endpoints["secretImports.update"].response.parse(res.body).secretImport).toMatchObject({
        importPath: "/x",
        position: 1,
        importEnv: { slug: "prod", id: p.envId("prod") },
      });
    });

    it("deletes an import and closes the gap", async () => {
      const p = await projectWithImports();
      const a = await p.add({ environment: "staging" });
      await p.add({ environment: "prod" });
      await folderAt(svc, p.workspaceId, "prod", "/z");
      await p.add({ environment: "prod", path: "/z" });
      const res = await p.remove(a.id);
      expect(res.status).toBe(200);
      const body = endpoints["secretImports.delete"].response.parse(res.body);
      expect(body.message).toBe("Successfully deleted secret import");
      expect(body.secretImport).toMatchObject({ id: a.id, position: 1 });
      expect(order(await p.list())).toEqual(["prod:/@1", "prod:/z@2"]);
    });

    it("closes the gap an import leaves when its source environment is deleted", async () => {
      const p = await projectWithImports();
      const qa = endpoints["environments.create"].response.parse(
        (
          await svc.endpoint("environments.create", {
            params: { workspaceId: p.workspaceId },
            body: { name: "QA", slug: "qa" },
          })
        ).body,
      ).environment;
      await p.add({ environment: "staging" });
      await p.add({ environment: "qa" });
      await p.add({ environment: "prod" });
      await svc.endpoint("environments.delete", { params: { workspaceId: p.workspaceId, id: qa.id } });
      expect(order(await p.list())).toEqual(["staging:/@1", "prod:/@2"]);
      expect((await p.add({ environment: "prod", path: "/later" })).position).toBe(3);
    });

    it("stores the replication flag and says truthfully that nothing is replicated", async () => {
      const p = await projectWithImports();
      const res = await p.create({ environment: "staging" }, p.folder(), undefined, { isReplication: true });
      expect(res.status).toBe(200);
      expect(parse.one.parse(res.body).secretImport).toMatchObject({
        isReplication: true,
        isReplicationSuccess: false,
        replicationStatus: REPLICATION_NOT_DONE_STATUS,
        lastReplicated: null,
        position: 1,
      });
      expect((await p.list())[0]?.isReplication).toBe(true);
    });

    it("gives imports created at the same time distinct positions 1..n", async () => {
      const p = await projectWithImports();
      const names = Array.from({ length: 8 }, (_, i) => `/p${i}`);
      for (const path of names) await folderAt(svc, p.workspaceId, "prod", path);
      const results = await Promise.all(names.map((path) => p.create({ environment: "prod", path })));
      expect(results.map((r) => r.status)).toEqual(names.map(() => 200));
      expect((await p.list()).map((i) => i.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    });
  });

  describe("cycles", () => {
    it("refuses a folder importing itself", async () => {
      const p = await projectWithImports();
      const res = await p.create({ environment: "dev", path: "/" });
      expect(res.status).toBe(400);
      expect(errorOf(res.body)).toMatchObject({
        error: "BadRequest",
        message: "Cyclic import not allowed: importing dev:/ into dev:/ would make it import itself (dev:/ → dev:/)",
      });
    });

    it("refuses a direct cycle", async () => {
      const p = await projectWithImports();
      await p.add({ environment: "staging" });
      const res = await p.create({ environment: "dev" }, p.folder("staging"));
      expect(res.status).toBe(400);
      expect(errorOf(res.body).message).toBe(
        "Cyclic import not allowed: importing dev:/ into staging:/ would make it import itself (staging:/ → dev:/ → staging:/)",
      );
    });

    it("refuses an indirect cycle through folders of other environments, on create and on update", async () => {
      const p = await projectWithImports();
      await folderAt(svc, p.workspaceId, "prod", "/core");
      await p.add({ environment: "staging" }); // dev:/ ← staging:/
      await p.add({ environment: "prod", path: "/core" }, p.folder("staging")); // staging:/ ← prod:/core
      const res = await p.create({ environment: "dev" }, p.folder("prod", "/core"));
      expect(res.status).toBe(400);
      expect(errorOf(res.body).message).toBe(
        "Cyclic import not allowed: importing dev:/ into prod:/core would make it import itself (prod:/core → dev:/ → staging:/ → prod:/core)",
      );
      // An allowed import, then a change of its source that would close the cycle.
      const ok = await p.add({ environment: "prod" }, p.folder("prod", "/core"));
      const update = await p.move(ok.id, { environment: "dev" }, p.folder("prod", "/core"));
      expect(update.status).toBe(400);
      expect(errorOf(update.body).message).toMatch(/^Cyclic import not allowed/);
      expect(order(await p.list(p.folder("prod", "/core")))).toEqual(["prod:/@1"]);
    });
  });

  describe("error paths", () => {
    it("answers 404 for an unknown environment, folder or source environment", async () => {
      const p = await projectWithImports();
      const noEnv = await p.create({ environment: "staging" }, p.folder("qa"));
      expect(noEnv.status).toBe(404);
      expect(errorOf(noEnv.body).message).toBe(
        `Environment with slug 'qa' in project with ID '${p.workspaceId}' not found`,
      );
      const noFolder = await p.create({ environment: "staging" }, p.folder("dev", "/missing"));
      expect(noFolder.status).toBe(404);
      expect(errorOf(noFolder.body).message).toBe(
        "Folder with path '/missing' in environment with slug 'dev' not found",
      );
      const noSource = await p.create({ environment: "qa" });
      expect(noSource.status).toBe(404);
      const listMissing = await svc.endpoint("secretImports.list", { query: p.folder("dev", "/missing") });
      expect(listMissing.status).toBe(404);
      const unknownProject = await svc.endpoint("secretImports.list", {
        query: { workspaceId: "00000000-0000-4000-8000-000000000000", environment: "dev", path: "/" },
      });
      expect(unknownProject.status).toBe(404);
    });

    it("answers 400 for an update of an import the folder does not have, 404 for such a delete", async () => {
      const p = await projectWithImports();
      const other = await p.add({ environment: "prod" }, p.folder("staging"));
      const update = await p.move(other.id, { position: 1 });
      expect(update.status).toBe(400);
      expect(errorOf(update.body).message).toBe("Secret import not found");
      const del = await p.remove(other.id);
      expect(del.status).toBe(404);
      expect(errorOf(del.body).message).toBe(`Secret import with ID '${other.id}' not found`);
    });

    it("refuses the same source twice in one folder (400)", async () => {
      const p = await projectWithImports();
      await p.add({ environment: "staging" });
      const again = await p.create({ environment: "staging", path: "/" });
      expect(again.status).toBe(400);
      expect(errorOf(again.body).message).toBe(
        "This folder already imports the secrets of '/' in environment 'staging'",
      );
    });

    it("answers 422 for a bad body or query", async () => {
      const p = await projectWithImports();
      const created = await p.add({ environment: "staging" });
      expect((await p.move(created.id, { position: 0 })).status).toBe(422);
      expect((await p.move(created.id, { position: 1.5 })).status).toBe(422);
      const noImport = await svc.endpoint("secretImports.create", { body: p.folder() });
      expect(noImport.status).toBe(422);
      const noEnv = await svc.call("GET", `/api/v1/secret-imports?workspaceId=${p.workspaceId}`);
      expect(noEnv.status).toBe(422);
      const badId = await svc.endpoint("secretImports.delete", { params: { secretImportId: "x" }, body: p.folder() });
      expect(badId.status).toBe(422);
    });

    it("checks secret-imports permission on the folder and describe permission on the source", async () => {
      const p = await projectWithImports();
      const created = await p.add({ environment: "staging" });
      const viewer = await memberWithRoles(svc, p.workspaceId, ["viewer"], "imports-viewer");
      expect((await svc.endpoint("secretImports.list", { query: p.folder() }, { token: viewer.token })).status).toBe(
        200,
      );
      const refused = await p.create({ environment: "prod" }, p.folder(), viewer.token);
      expect(refused.status).toBe(403);
      expect(errorOf(refused.body)).toMatchObject({
        error: "PermissionDenied",
        message: "You are not allowed to create on secret-imports",
      });
      expect((await p.move(created.id, { position: 1 }, p.folder(), viewer.token)).status).toBe(403);
      expect((await p.remove(created.id, p.folder(), viewer.token)).status).toBe(403);

      const role = await svc.endpoint("projectRoles.create", {
        params: { projectId: p.workspaceId },
        body: {
          slug: "dev-importer",
          name: "Dev importer",
          permissions: [
            {
              subject: "secret-imports",
              action: ["read", "create", "edit", "delete"],
              conditions: { environment: "dev" },
            },
            { subject: "secrets", action: ["describeSecret"], conditions: { environment: "staging" } },
          ],
        },
      });
      expect(role.status, JSON.stringify(role.body)).toBe(200);
      const importer = await memberWithRoles(svc, p.workspaceId, ["dev-importer"], "dev-importer");
      const fromProd = await p.create({ environment: "prod" }, p.folder(), importer.token);
      expect(fromProd.status).toBe(403);
      expect(errorOf(fromProd.body).message).toBe("You are not allowed to describeSecret on secrets");
      const intoStaging = await p.create({ environment: "staging" }, p.folder("staging"), importer.token);
      expect(intoStaging.status).toBe(403);
      await folderAt(svc, p.workspaceId, "staging", "/ok");
      const allowed = await p.create({ environment: "staging", path: "/ok" }, p.folder(), importer.token);
      expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);

      const outsider = await memberWithRoles(svc, (await createProject(svc)).id, ["admin"], "imports-outsider");
      const notMember = await svc.endpoint("secretImports.list", { query: p.folder() }, { token: outsider.token });
      expect(notMember.status).toBe(403);
      expect(errorOf(notMember.body).error).toBe("ProjectMembershipNotFound");
    });
  });
});
