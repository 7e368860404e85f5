import { z } from "zod";
import { slugSchema, Timestamp, Uuid } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

export const projectTypes = ["secret-manager", "cert-manager", "kms", "ssh", "secret-scanning", "pam"] as const;

export const EnvironmentSchema = z.object({ name: z.string(), slug: z.string(), id: z.string() });
export type Environment = z.infer<typeof EnvironmentSchema>;

export const ProjectSchema = z.object({
  id: z.string(),
  _id: z.string(),
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

export const WorkspaceIdParams = z.object({ workspaceId: z.string().trim().min(1).describe("The project id") });

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
    id: "projects.get",
    method: "GET",
    path: "/api/v1/workspace/{workspaceId}",
    summary: "Read a project with its environments",
    params: WorkspaceIdParams,
    response: z.object({ workspace: ProjectSchema }),
  }),
] as const;
