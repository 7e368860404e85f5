import { z } from "zod";
import { NullableTimestamp, Timestamp, Uuid } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";
import { WorkspaceIdParams } from "./projects.ts";

const optionalText = z.string().nullable().optional();

export const IntegrationSchema = z.object({
  id: Uuid,
  isActive: z.boolean(),
  url: optionalText,
  app: optionalText,
  appId: optionalText,
  targetEnvironment: optionalText,
  targetEnvironmentId: optionalText,
  targetService: optionalText,
  targetServiceId: optionalText,
  owner: optionalText,
  path: optionalText,
  region: optionalText,
  scope: optionalText,
  integration: z.string().describe("Provider, for example github or aws-parameter-store"),
  metadata: z.unknown().optional(),
  integrationAuthId: Uuid,
  envId: Uuid,
  secretPath: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  lastUsed: NullableTimestamp.optional(),
  isSynced: z.boolean().nullable().optional(),
  syncMessage: optionalText,
  lastSyncJobId: optionalText,
  environment: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
});
export type Integration = z.infer<typeof IntegrationSchema>;

export const integrationEndpoints = [
  defineEndpoint({
    id: "projects.listIntegrations",
    method: "GET",
    path: "/api/v1/workspace/{workspaceId}/integrations",
    summary: "List a project's integrations",
    params: WorkspaceIdParams,
    response: z.object({ integrations: z.array(IntegrationSchema) }),
    permission: { scope: "project", subject: "integrations", action: "read" },
  }),
] as const;
