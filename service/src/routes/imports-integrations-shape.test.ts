import { endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject } from "../test/project-fixtures.ts";
import { recordedBody, shapeOf, shapesSideBySide } from "../test/shapes.ts";

/** Secret imports and integrations answer with the mid-2026 server's exact shapes. */
describeEachDatabase("secret imports and integrations: the recorded server's shapes", (kind) => {
  let svc: TestService;
  let workspaceId: string;
  const folder = () => ({ workspaceId, environment: "dev", path: "/" });
  beforeAll(async () => {
    svc = await startService({ kind });
    workspaceId = (await createProject(svc)).id;
  });
  afterAll(async () => svc?.close());

  const expectShape = (ours: unknown, prefix: string) => {
    const [a, b] = shapesSideBySide(ours, recordedBody(prefix));
    expect(a).toEqual(b);
    expect(shapeOf(ours)).toEqual(shapeOf(recordedBody(prefix)));
  };
  const create = (environment: string) =>
    svc.endpoint("secretImports.create", { body: { ...folder(), import: { environment, path: "/" } } });

  it("122 secretImports.create, 124 secretImports.list", async () => {
    const res = await create("staging");
    expect(res.status).toBe(200);
    expectShape(res.body, "122-");
    expect((await create("prod")).status).toBe(200);
    const listed = await svc.endpoint("secretImports.list", { query: folder() });
    expectShape(listed.body, "124-");
  });

  it("125 secretImports.update, 126 the list after the move, 132 secretImports.delete", async () => {
    const { secretImports } = endpoints["secretImports.list"].response.parse(
      (await svc.endpoint("secretImports.list", { query: folder() })).body,
    );
    const [first, second] = secretImports;
    if (!first || !second) throw new Error("two imports expected");
    const moved = await svc.endpoint("secretImports.update", {
      params: { secretImportId: second.id },
      body: { ...folder(), import: { position: 1 } },
    });
    expect(moved.status).toBe(200);
    expectShape(moved.body, "125-");
    expectShape((await svc.endpoint("secretImports.list", { query: folder() })).body, "126-");
    const deleted = await svc.endpoint("secretImports.delete", {
      params: { secretImportId: first.id },
      body: folder(),
    });
    expect(deleted.status).toBe(200);
    expectShape(deleted.body, "132-");
  });

  it("128 secrets.list with include_imports, 131 the same on the v4 path", async () => {
    const project = (await createProject(svc)).id;
    const secret = async (environment: string, key: string) => {
      const res = await svc.endpoint("secrets.create", {
        params: { secretName: key },
        body: {
          workspaceId: project,
          environment,
          secretPath: "/",
          secretValue: `${key}-${environment}`,
          secretComment: "c",
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await secret("dev", "MAIN_DATABASE_URL");
    await secret("prod", "API_KEY");
    await secret("staging", "API_KEY");
    for (const environment of ["prod", "staging"]) {
      const res = await svc.endpoint("secretImports.create", {
        body: { workspaceId: project, environment: "dev", path: "/", import: { environment, path: "/" } },
      });
      expect(res.status).toBe(200);
    }
    const v3 = await svc.endpoint("secrets.list", {
      query: { workspaceId: project, environment: "dev", secretPath: "/", include_imports: "true" },
    });
    expect(v3.status).toBe(200);
    expectShape(v3.body, "128-");
    const v4 = await svc.endpoint("secrets.listV4", {
      query: { projectId: project, environment: "dev", secretPath: "/", include_imports: "true" },
    });
    expect(v4.status).toBe(200);
    expectShape(v4.body, "131-");
  });

  it("134 projects.listIntegrations", async () => {
    const res = await svc.endpoint("projects.listIntegrations", { params: { workspaceId } });
    expect(res.status).toBe(200);
    expectShape(res.body, "134-");
  });
});
