import { z } from "zod";
import { slugSchema, Timestamp, Uuid } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";
import { PermissionRuleInputSchema, PermissionRuleSchema, reservedProjectRoleSlugs } from "./permissions.ts";

export const ProjectRoleSchema = z.object({
  id: Uuid,
  name: z.string(),
  description: z.string().nullable().optional(),
  slug: z.string(),
  permissions: z.array(PermissionRuleSchema),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  projectId: z.string(),
  version: z.number().int().optional(),
});
export type ProjectRole = z.infer<typeof ProjectRoleSchema>;

/** A role as the list shows it: without its rules (the role's own endpoint has them). */
export const ProjectRoleSummarySchema = ProjectRoleSchema.omit({ permissions: true });
export type ProjectRoleSummary = z.infer<typeof ProjectRoleSummarySchema>;

const customRoleSlug = slugSchema(1, 64).refine(
  (s) => !(reservedProjectRoleSlugs as readonly string[]).includes(s),
  "This slug is reserved for a built-in role; choose another",
);

export const CreateProjectRoleBodySchema = z.object({
  slug: customRoleSlug,
  name: z.string().trim().min(1, "Name is required").max(64),
  description: z.string().trim().max(500).nullable().optional(),
  permissions: z.array(PermissionRuleInputSchema),
});

export const UpdateProjectRoleBodySchema = z.object({
  slug: customRoleSlug.optional(),
  name: z.string().trim().min(1, "Name is required").max(64).optional(),
  description: z.string().trim().max(500).nullable().optional(),
  permissions: z.array(PermissionRuleInputSchema).optional(),
});

const ProjectIdParams = z.object({ projectId: z.string().trim().min(1).describe("The project id") });
const RoleIdParams = ProjectIdParams.extend({ roleId: z.string().trim().min(1).describe("The custom role id") });

export const projectRoleEndpoints = [
  defineEndpoint({
    id: "projectRoles.create",
    method: "POST",
    path: "/api/v2/workspace/{projectId}/roles",
    summary: "Create a custom project role",
    params: ProjectIdParams,
    body: CreateProjectRoleBodySchema,
    response: z.object({ role: ProjectRoleSchema }),
    permission: { scope: "project", subject: "role", action: "create" },
  }),
  defineEndpoint({
    id: "projectRoles.list",
    method: "GET",
    path: "/api/v2/workspace/{projectId}/roles",
    summary: "List the project's roles: the predefined ones first, then custom roles by slug",
    params: ProjectIdParams,
    response: z.object({ roles: z.array(ProjectRoleSummarySchema) }),
    permission: { scope: "project", subject: "role", action: "read" },
  }),
  defineEndpoint({
    id: "projectRoles.getBySlug",
    method: "GET",
    path: "/api/v2/workspace/{projectId}/roles/slug/{roleSlug}",
    summary: "Read a role, predefined or custom, with its rules",
    params: ProjectIdParams.extend({ roleSlug: z.string().trim().min(1).describe("The role slug") }),
    response: z.object({ role: ProjectRoleSchema }),
    permission: { scope: "project", subject: "role", action: "read" },
  }),
  defineEndpoint({
    id: "projectRoles.update",
    method: "PATCH",
    path: "/api/v2/workspace/{projectId}/roles/{roleId}",
    summary: "Change a custom role's slug, name, description or rules",
    params: RoleIdParams,
    body: UpdateProjectRoleBodySchema,
    response: z.object({ role: ProjectRoleSchema }),
    permission: { scope: "project", subject: "role", action: "edit" },
  }),
  defineEndpoint({
    id: "projectRoles.delete",
    method: "DELETE",
    path: "/api/v2/workspace/{projectId}/roles/{roleId}",
    summary: "Delete a custom role (refused while a membership holds it)",
    params: RoleIdParams,
    response: z.object({ role: ProjectRoleSchema }),
    permission: { scope: "project", subject: "role", action: "delete" },
  }),
] as const;
