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

export const CreateProjectRoleBodySchema = z.object({
  slug: slugSchema(1, 64).refine(
    (s) => !(reservedProjectRoleSlugs as readonly string[]).includes(s),
    "This slug is reserved for a built-in role; choose another",
  ),
  name: z.string().trim().min(1, "Name is required").max(64),
  description: z.string().trim().max(500).nullable().optional(),
  permissions: z.array(PermissionRuleInputSchema),
});

export const projectRoleEndpoints = [
  defineEndpoint({
    id: "projectRoles.create",
    method: "POST",
    path: "/api/v2/workspace/{projectId}/roles",
    summary: "Create a custom project role",
    params: z.object({ projectId: z.string().trim().min(1).describe("The project id") }),
    body: CreateProjectRoleBodySchema,
    response: z.object({ role: ProjectRoleSchema }),
    permission: { scope: "project", subject: "role", action: "create" },
  }),
] as const;
