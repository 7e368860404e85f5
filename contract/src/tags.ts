import { z } from "zod";
import { slugSchema, Timestamp } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";
import { WorkspaceIdParams } from "./projects.ts";

/** A project's secret tag. Current servers dropped `name`; 2024 servers still send it. */
export const TagSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string().optional(),
  color: z.string().nullable().optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  createdBy: z.string().nullable().optional(),
  projectId: z.string(),
  createdByActorType: z.string().optional(),
});
export type Tag = z.infer<typeof TagSchema>;

export const tagEndpoints = [
  defineEndpoint({
    id: "tags.list",
    method: "GET",
    path: "/api/v1/workspace/{workspaceId}/tags",
    summary: "List a project's secret tags, oldest first",
    params: WorkspaceIdParams,
    response: z.object({ workspaceTags: z.array(TagSchema) }),
    permission: { scope: "project", subject: "tags", action: "read" },
  }),
  defineEndpoint({
    id: "tags.create",
    method: "POST",
    path: "/api/v1/workspace/{workspaceId}/tags",
    summary: "Create a secret tag",
    params: WorkspaceIdParams,
    body: z.object({
      slug: slugSchema(1, 64),
      color: z.string().trim(),
    }),
    response: z.object({ workspaceTag: TagSchema }),
    permission: { scope: "project", subject: "tags", action: "create" },
  }),
  defineEndpoint({
    id: "tags.delete",
    method: "DELETE",
    path: "/api/v1/workspace/{workspaceId}/tags/{tagId}",
    summary: "Delete a secret tag (secrets lose it)",
    params: WorkspaceIdParams.extend({ tagId: z.string().trim().min(1).describe("The tag") }),
    response: z.object({ workspaceTag: TagSchema }),
    permission: { scope: "project", subject: "tags", action: "delete" },
  }),
] as const;
