import { z } from "zod";
import { NullableTimestamp, slugSchema, Timestamp, Uuid, wholeNumber } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

export const projectTypes = ["secret-manager", "cert-manager", "kms", "ssh", "secret-scanning", "pam"] as const;

/** An environment as a project lists it. */
export const EnvironmentSchema = z.object({ name: z.string(), slug: z.string(), id: z.string() });
export type Environment = z.infer<typeof EnvironmentSchema>;

/** The environment record the environment endpoints answer with. */
export const EnvironmentRecordSchema = EnvironmentSchema.extend({
  position: z.number().int().describe("1-based order of the environment in its project"),
  projectId: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  // Soft deletion of environments; current servers send them (always null here), 2024 servers do not.
  deleteAfter: NullableTimestamp.optional(),
  softDeletedAt: NullableTimestamp.optional(),
  deletedByUserId: z.string().nullable().optional(),
  deletedByIdentityId: z.string().nullable().optional(),
});
export type EnvironmentRecord = z.infer<typeof EnvironmentRecordSchema>;

/** The project record itself, as update and delete answer it (no environments). */
export const ProjectRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable().optional(),
  type: z.string(),
  defaultProduct: z.string().nullable().optional(),
  slug: z.string(),
  autoCapitalization: z.boolean().nullable().optional(),
  orgId: Uuid,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: z.number().int(),
  upgradeStatus: z.string().nullable().optional(),
  pitVersionLimit: z.number().int(),
  kmsCertificateKeyId: Uuid.nullable().optional(),
  auditLogsRetentionDays: z.number().int().nullable().optional(),
  hasDeleteProtection: z.boolean().nullable().optional(),
  secretSharing: z.boolean(),
  showSnapshotsLegacy: z.boolean(),
  secretDetectionIgnoreValues: z.array(z.string()).nullable().optional(),
  enforceEncryptedSecretManagerSecretMetadata: z.boolean().nullable().optional(),
});
export type ProjectRecord = z.infer<typeof ProjectRecordSchema>;

/** The project with its legacy `_id` and its environments (create, get, list). */
export const ProjectSchema = ProjectRecordSchema.extend({
  _id: z.string(),
  environments: z.array(EnvironmentSchema),
});
export type Project = z.infer<typeof ProjectSchema>;

/** The project as create answers it. */
export const CreatedProjectSchema = ProjectSchema.extend({ kmsSecretManagerKeyId: z.string().nullable().optional() });

export const CreateProjectBodySchema = z.object({
  projectName: z.string().trim().min(1, "Project name is required").max(64),
  projectDescription: z.string().trim().max(256).optional(),
  slug: slugSchema(5, 36).optional(),
  kmsKeyId: z.string().optional(),
  template: z.string().trim().max(64).default("default"),
  type: z.enum(projectTypes).default("secret-manager"),
  shouldCreateDefaultEnvs: z.boolean().default(true),
  hasDeleteProtection: z.boolean().default(false),
});

export const UpdateProjectBodySchema = z.object({
  name: z.string().trim().min(1, "Project name is required").max(64).optional(),
  description: z.string().trim().max(256).optional(),
  autoCapitalization: z.boolean().optional(),
  hasDeleteProtection: z.boolean().optional(),
  // The update path accepts underscores as separators too (Infisical's v1 rule).
  slug: z
    .string()
    .trim()
    .max(64, "Slug must be at most 64 characters")
    .regex(
      /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/,
      "Slug may contain only lowercase letters and digits, separated by single hyphens or underscores",
    )
    .optional(),
  secretSharing: z.boolean().optional(),
  showSnapshotsLegacy: z.boolean().optional(),
  defaultProduct: z.enum(projectTypes).optional(),
  pitVersionLimit: wholeNumber(1, 100).optional(),
});

export const WorkspaceIdParams = z.object({ workspaceId: z.string().trim().min(1).describe("The project id") });
const EnvironmentIdParams = WorkspaceIdParams.extend({ id: z.string().trim().min(1).describe("The environment id") });

export const CreateEnvironmentBodySchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(64),
  slug: slugSchema(1, 64),
  position: wholeNumber(1).optional().describe("Defaults to after the last environment"),
});
export const UpdateEnvironmentBodySchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(64).optional(),
  slug: slugSchema(1, 64).optional(),
  position: wholeNumber(1).optional(),
});

/** What the environment endpoints answer: a sentence, the project id and the environment. */
const EnvironmentEnvelope = z.object({
  message: z.string(),
  workspace: z.string(),
  environment: EnvironmentRecordSchema,
});

export const projectEndpoints = [
  defineEndpoint({
    id: "projects.create",
    method: "POST",
    path: "/api/v2/workspace",
    summary: "Create a project, with default environments unless asked otherwise",
    body: CreateProjectBodySchema,
    response: z.object({ project: CreatedProjectSchema }),
    permission: { scope: "org", subject: "workspace", action: "create" },
  }),
  defineEndpoint({
    id: "projects.list",
    method: "GET",
    path: "/api/v1/workspace",
    summary: "List the projects the caller is a member of",
    query: z.object({ type: z.enum(projectTypes).optional() }),
    response: z.object({ workspaces: z.array(ProjectSchema) }),
  }),
  defineEndpoint({
    id: "projects.get",
    method: "GET",
    path: "/api/v1/workspace/{workspaceId}",
    summary: "Read a project with its environments",
    params: WorkspaceIdParams,
    response: z.object({ workspace: ProjectSchema }),
  }),
  defineEndpoint({
    id: "projects.update",
    method: "PATCH",
    path: "/api/v1/workspace/{workspaceId}",
    summary: "Change a project's name, slug, description or settings",
    params: WorkspaceIdParams,
    body: UpdateProjectBodySchema,
    response: z.object({ workspace: ProjectRecordSchema }),
    permission: { scope: "project", subject: "settings", action: "edit" },
  }),
  defineEndpoint({
    id: "projects.delete",
    method: "DELETE",
    path: "/api/v1/workspace/{workspaceId}",
    summary: "Delete a project (refused while its delete protection is on)",
    params: WorkspaceIdParams,
    response: z.object({ workspace: ProjectRecordSchema }),
    permission: { scope: "project", subject: "workspace", action: "delete" },
  }),
  defineEndpoint({
    id: "environments.create",
    method: "POST",
    path: "/api/v1/workspace/{workspaceId}/environments",
    summary: "Add an environment to a project",
    params: WorkspaceIdParams,
    body: CreateEnvironmentBodySchema,
    response: EnvironmentEnvelope,
    permission: { scope: "project", subject: "environments", action: "create" },
  }),
  defineEndpoint({
    id: "environments.update",
    method: "PATCH",
    path: "/api/v1/workspace/{workspaceId}/environments/{id}",
    summary: "Rename, re-slug or move an environment",
    params: EnvironmentIdParams,
    body: UpdateEnvironmentBodySchema,
    response: EnvironmentEnvelope,
    permission: { scope: "project", subject: "environments", action: "edit" },
  }),
  defineEndpoint({
    id: "environments.delete",
    method: "DELETE",
    path: "/api/v1/workspace/{workspaceId}/environments/{id}",
    summary: "Delete an environment",
    params: EnvironmentIdParams,
    response: EnvironmentEnvelope,
    permission: { scope: "project", subject: "environments", action: "delete" },
  }),
] as const;
