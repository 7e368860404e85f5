import { z } from "zod";
import { NullableTimestamp, Timestamp, Uuid } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";
import { WorkspaceIdParams } from "./projects.ts";

export const MembershipRoleSchema = z.object({
  id: z.string(),
  role: z.string(),
  customRoleId: z.string().nullable().optional(),
  customRoleName: z.string().nullable().optional(),
  customRoleSlug: z.string().nullable().optional(),
  isTemporary: z.boolean(),
  temporaryMode: z.string().nullable().optional(),
  temporaryRange: z.string().nullable().optional(),
  temporaryAccessStartTime: NullableTimestamp.optional(),
  temporaryAccessEndTime: NullableTimestamp.optional(),
});

export const ProjectMemberUserSchema = z.object({
  email: z.string().nullable().optional(),
  firstName: z.string().nullable().optional(),
  lastName: z.string().nullable().optional(),
  username: z.string(),
  publicKey: z.string().nullable().optional(),
  id: Uuid,
});

export const ProjectMembershipSchema = z.object({
  id: Uuid,
  createdAt: Timestamp.optional().describe("Servers before 2025 leave it out"),
  userId: Uuid,
  projectId: z.string(),
  user: ProjectMemberUserSchema,
  roles: z.array(MembershipRoleSchema),
});
export type ProjectMembership = z.infer<typeof ProjectMembershipSchema>;

export const membershipEndpoints = [
  defineEndpoint({
    id: "projects.listMemberships",
    method: "GET",
    path: "/api/v1/workspace/{workspaceId}/memberships",
    summary: "List a project's user memberships with their roles",
    params: WorkspaceIdParams,
    response: z.object({ memberships: z.array(ProjectMembershipSchema) }),
    permission: { scope: "project", subject: "member", action: "read" },
  }),
] as const;
