import { randomUUID } from "node:crypto";
import { endpoints } from "@keyhold/contract";
import { expect } from "vitest";
import type { ProjectRule } from "../domain/project-permissions.ts";
import type { TestService } from "./harness.ts";

/** Creates a project through the API as the bootstrap admin, who becomes its `admin` member. */
export async function seedProject(svc: TestService, name: string): Promise<string> {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 24);
  const res = await svc.endpoint("projects.create", {
    body: { projectName: name, slug: `${base}-${randomUUID().slice(0, 8)}` },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return endpoints["projects.create"].response.parse(res.body).project.id;
}

/** Creates a custom role of a project through the API; answers its id. */
export async function seedCustomRole(
  svc: TestService,
  projectId: string,
  role: { slug: string; name: string; permissions: ProjectRule[] },
): Promise<string> {
  const res = await svc.endpoint("projectRoles.create", { params: { projectId }, body: role });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return endpoints["projectRoles.create"].response.parse(res.body).role.id;
}
