import { z } from "zod";
import { NullableTimestamp, Timestamp } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

export const FolderNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]+$/, "Invalid folder name. Only alphanumeric characters, dashes, and underscores are allowed.");

/** A folder row: `parentId` is null only for an environment's root folder. */
export const FolderSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.number().int(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  envId: z.string(),
  parentId: z.string().nullable(),
  isReserved: z.boolean().nullable().optional(),
  description: z.string().nullable().optional(),
  lastSecretModified: NullableTimestamp.optional(),
});
export type Folder = z.infer<typeof FolderSchema>;

/** A folder with its full path, as create and rename answer it (2024 servers leave the path out). */
export const FolderWithPathSchema = FolderSchema.extend({ path: z.string().optional() });
export type FolderWithPath = z.infer<typeof FolderWithPathSchema>;

/** A listed folder; a recursive list adds its path relative to the listed one. */
export const ListedFolderSchema = FolderSchema.extend({ relativePath: z.string().optional() });

/** One folder by id: with its path, project and environment. */
export const FolderDetailSchema = FolderWithPathSchema.extend({
  projectId: z.string(),
  environment: z.object({ envId: z.string(), envName: z.string(), envSlug: z.string() }),
});

/**
 * `path` names the parent folder (default "/"); the CLI's older `directory` is accepted too.
 * Both stay as sent, so that a forwarded request carries only what its caller gave.
 */
const parentPath = {
  path: z.string().trim().optional(),
  directory: z.string().trim().optional(),
};

const FolderIdParams = z.object({ folderId: z.string().trim().min(1).describe("The folder's id (or its name)") });

export const folderEndpoints = [
  defineEndpoint({
    id: "folders.create",
    method: "POST",
    path: "/api/v1/folders",
    summary: "Create a folder (missing parent folders are created too)",
    body: z.object({
      workspaceId: z.string().trim().min(1),
      environment: z.string().trim().min(1),
      name: FolderNameSchema,
      ...parentPath,
      description: z.string().nullable().optional(),
    }),
    response: z.object({ folder: FolderWithPathSchema }),
    permission: { scope: "project", subject: "secret-folders", action: "create" },
  }),
  defineEndpoint({
    id: "folders.list",
    method: "GET",
    path: "/api/v1/folders",
    summary: "List the folders in a path (every descendant when recursive)",
    query: z.object({
      workspaceId: z.string().trim().min(1),
      environment: z.string().trim().min(1),
      ...parentPath,
      recursive: z.stringbool().optional().describe("Default false"),
    }),
    response: z.object({ folders: z.array(ListedFolderSchema) }),
  }),
  defineEndpoint({
    id: "folders.get",
    method: "GET",
    path: "/api/v1/folders/{folderId}",
    summary: "Read one folder by id",
    params: FolderIdParams,
    response: z.object({ folder: FolderDetailSchema }),
  }),
  defineEndpoint({
    id: "folders.update",
    method: "PATCH",
    path: "/api/v1/folders/{folderId}",
    summary: "Rename a folder or change its description",
    params: FolderIdParams,
    body: z.object({
      workspaceId: z.string().trim().min(1),
      environment: z.string().trim().min(1),
      name: FolderNameSchema,
      ...parentPath,
      description: z.string().nullable().optional(),
    }),
    response: z.object({ folder: FolderWithPathSchema }),
    permission: { scope: "project", subject: "secret-folders", action: "edit" },
  }),
  defineEndpoint({
    id: "folders.delete",
    method: "DELETE",
    path: "/api/v1/folders/{folderId}",
    summary: "Delete a folder with its subfolders and secrets",
    params: FolderIdParams,
    body: z.object({
      workspaceId: z.string().trim().min(1),
      environment: z.string().trim().min(1),
      ...parentPath,
    }),
    response: z.object({ folder: FolderSchema }),
    permission: { scope: "project", subject: "secret-folders", action: "delete" },
  }),
] as const;
