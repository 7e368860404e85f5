import { endpoints } from "@keyhold/contract";
import { expect } from "vitest";
import { identityWithToken } from "./fixtures.ts";
import type { CallOptions, TestService } from "./harness.ts";

let counter = 0;

/** A project created through the API by the admin (or `options.token`), with the default environments. */
export async function createProject(svc: TestService, body: Record<string, unknown> = {}, options: CallOptions = {}) {
  counter += 1;
  const res = await svc.endpoint(
    "projects.create",
    { body: { projectName: `Project ${counter}`, slug: `project-${counter}-${Date.now() % 100000}`, ...body } },
    options,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return endpoints["projects.create"].response.parse(res.body).project;
}

/**
 * An identity of the org with its own token, added to the project with the given roles
 * (predefined or custom slugs) through the identity-membership endpoint.
 */
export async function memberWithRoles(svc: TestService, projectId: string, roles: string[], name = "member") {
  const member = await identityWithToken(svc, { name, role: "member" });
  const added = await svc.endpoint("identityMemberships.add", {
    params: { projectId, identityId: member.identityId },
    body: { roles: roles.map((role) => ({ role, isTemporary: false })) },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return member;
}
