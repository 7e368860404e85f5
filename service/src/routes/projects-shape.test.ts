import { endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject } from "../test/project-fixtures.ts";
import { recordedBody, shapeOf, shapesSideBySide } from "../test/shapes.ts";

/** Projects, environments and project roles answer with the mid-2026 server's exact shapes. */
describeEachDatabase("projects and roles: the recorded server's shapes", (kind) => {
  let svc: TestService;
  let projectId: string;
  let environmentId: string;
  beforeAll(async () => {
    svc = await startService({ kind });
    // The recorded list's first project has a description; the recorded get and update have none.
    await createProject(svc, { projectDescription: "described" });
    const project = await createProject(svc);
    projectId = project.id;
    environmentId = endpoints["environments.create"].response.parse(
      (
        await svc.endpoint("environments.create", {
          params: { workspaceId: projectId },
          body: { name: "QA", slug: "qa" },
        })
      ).body,
    ).environment.id;
  });
  afterAll(async () => svc?.close());

  const expectShape = (ours: unknown, prefix: string) => {
    const [a, b] = shapesSideBySide(ours, recordedBody(prefix));
    expect(a).toEqual(b);
    expect(shapeOf(ours)).toEqual(shapeOf(recordedBody(prefix)));
  };

  const createRole = (slug: string, permissions: unknown[], description: string | null = "for shapes") =>
    svc.endpoint("projectRoles.create", {
      params: { projectId },
      body: { slug, name: slug, description, permissions },
    });

  it("047 projects.create", async () => {
    const res = await svc.endpoint("projects.create", {
      body: { projectName: "Shape create", type: "secret-manager" },
    });
    expect(res.status).toBe(200);
    expectShape(res.body, "047-");
  });

  it("049 projects.list", async () => {
    const res = await svc.endpoint("projects.list");
    expect(res.status).toBe(200);
    expectShape(res.body, "049-");
  });

  it("052 projects.get", async () => {
    const res = await svc.endpoint("projects.get", { params: { workspaceId: projectId } });
    expectShape(res.body, "052-");
  });

  it("058 projects.update", async () => {
    const res = await svc.endpoint("projects.update", {
      params: { workspaceId: projectId },
      body: { name: "Shape renamed", autoCapitalization: false },
    });
    expect(res.status).toBe(200);
    expectShape(res.body, "058-");
  });

  it("157 projects.delete", async () => {
    const throwaway = await createProject(svc, { projectName: "Throwaway" });
    const res = await svc.endpoint("projects.delete", { params: { workspaceId: throwaway.id } });
    expect(res.status).toBe(200);
    expectShape(res.body, "157-");
  });

  it("060 environments.create", async () => {
    const res = await svc.endpoint("environments.create", {
      params: { workspaceId: projectId },
      body: { name: "Shape", slug: "shape" },
    });
    expectShape(res.body, "060-");
  });

  it("061 environments.update", async () => {
    const res = await svc.endpoint("environments.update", {
      params: { workspaceId: projectId, id: environmentId },
      body: { name: "Quality", slug: "quality", position: 4 },
    });
    expectShape(res.body, "061-");
  });

  it("062 environments.delete", async () => {
    const res = await svc.endpoint("environments.delete", { params: { workspaceId: projectId, id: environmentId } });
    expectShape(res.body, "062-");
  });

  it("065 projectRoles.create", async () => {
    const res = await createRole("v2-role", [
      { subject: "secrets", action: ["read"], conditions: { environment: "dev" } },
    ]);
    expect(res.status).toBe(200);
    expectShape(res.body, "065-");
  });

  it("068 projectRoles.list", async () => {
    const res = await svc.endpoint("projectRoles.list", { params: { projectId } });
    expectShape(res.body, "068-");
  });

  it("071 projectRoles.getBySlug (custom)", async () => {
    await createRole("secret-reader", [
      { subject: "secrets", action: ["read"], conditions: { secretPath: { $glob: "/**" }, environment: "dev" } },
    ]);
    const res = await svc.endpoint("projectRoles.getBySlug", { params: { projectId, roleSlug: "secret-reader" } });
    expectShape(res.body, "071-");
  });

  it("072 projectRoles.getBySlug (predefined)", async () => {
    const res = await svc.endpoint("projectRoles.getBySlug", { params: { projectId, roleSlug: "admin" } });
    expectShape(res.body, "072-");
  });

  it("073 projectRoles.update", async () => {
    const created = await createRole("to-update", [{ subject: "secrets", action: ["read"] }]);
    const roleId = endpoints["projectRoles.create"].response.parse(created.body).role.id;
    const res = await svc.endpoint("projectRoles.update", {
      params: { projectId, roleId },
      body: {
        name: "Secret Reader (dev+staging)",
        permissions: [
          { subject: "secrets", action: ["read"], conditions: { environment: { $in: ["dev", "staging"] } } },
        ],
      },
    });
    expectShape(res.body, "073-");
  });

  it("074 projectRoles.delete", async () => {
    const created = await createRole("temp-role", [{ subject: "secrets", action: ["read", "edit"] }], null);
    const roleId = endpoints["projectRoles.create"].response.parse(created.body).role.id;
    const res = await svc.endpoint("projectRoles.delete", { params: { projectId, roleId } });
    expectShape(res.body, "074-");
  });
});
