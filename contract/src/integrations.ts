import { z } from "zod";
import { NullableTimestamp, OptionalSecretPath, SecretPath, Timestamp, Uuid } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";
import { WorkspaceIdParams } from "./projects.ts";

const optionalText = z.string().nullable().optional();

/**
 * The providers of Infisical's native integrations, by slug. An integration auth names one of
 * them; any other slug is refused with 400 "Invalid integration".
 */
export const integrationProviders = [
  "azure-key-vault",
  "azure-app-configuration",
  "azure-devops",
  "aws-parameter-store",
  "aws-secret-manager",
  "heroku",
  "vercel",
  "netlify",
  "github",
  "gitlab",
  "render",
  "railway",
  "flyio",
  "laravel-forge",
  "circleci",
  "databricks",
  "travisci",
  "teamcity",
  "supabase",
  "checkly",
  "qovery",
  "terraform-cloud",
  "hashicorp-vault",
  "cloudflare-pages",
  "cloudflare-workers",
  "bitbucket",
  "codefresh",
  "digital-ocean-app-platform",
  "cloud-66",
  "northflank",
  "hasura-cloud",
  "windmill",
  "gcp-secret-manager",
  "rundeck",
  "octopus-deploy",
] as const;
export type IntegrationProvider = (typeof integrationProviders)[number];

/**
 * What this service says on every integration it stores: it keeps the configuration but never
 * pushes secrets to the provider.
 */
export const INTEGRATION_NOT_SYNCED_MESSAGE =
  "Not synced: this service stores the integration but does not sync secrets to external providers.";

/** Options a sync would apply, kept as given (Infisical's integration metadata keys). */
export const IntegrationMetadataSchema = z
  .object({
    initialSyncBehavior: z.string().optional(),
    secretPrefix: z.string().optional(),
    secretSuffix: z.string().optional(),
    mappingBehavior: z.string().optional(),
    shouldAutoRedeploy: z.boolean().optional(),
    secretGCPLabel: z.object({ labelName: z.string(), labelValue: z.string() }).optional(),
    secretAWSTag: z.array(z.object({ key: z.string(), value: z.string() })).optional(),
    githubVisibility: z.enum(["selected", "private", "all"]).optional(),
    githubVisibilityRepoIds: z.array(z.string()).optional(),
    kmsKeyId: z.string().optional(),
    shouldDisableDelete: z.boolean().optional(),
    shouldEnableDelete: z.boolean().optional(),
    shouldMaskSecrets: z.boolean().optional(),
    shouldProtectSecrets: z.boolean().optional(),
  })
  .loose();

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
  isSynced: z.boolean().nullable().optional().describe("False here: this service never syncs to the provider"),
  syncMessage: optionalText.describe("Why the last sync did what it did"),
  lastSyncJobId: optionalText,
  environment: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
});
export type Integration = z.infer<typeof IntegrationSchema>;

/** An integration auth as returned: the provider and where it is; credentials never leave the service. */
export const IntegrationAuthSchema = z.object({
  id: Uuid,
  projectId: z.string(),
  integration: z.string(),
  teamId: z.string().nullable(),
  url: z.string().nullable(),
  namespace: z.string().nullable(),
  accountId: z.string().nullable(),
  metadata: z.unknown().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type IntegrationAuth = z.infer<typeof IntegrationAuthSchema>;

const text = z.string().trim().min(1);

export const CreateIntegrationAuthBodySchema = z.object({
  workspaceId: text.describe("The project"),
  integration: text.describe("Provider slug, for example github"),
  accessId: text.optional().describe("An access key id, for providers that use one"),
  accessToken: text.optional().describe("The provider token; stored encrypted, never returned"),
  awsAssumeIamRoleArn: z.url().trim().optional(),
  url: z.url().trim().optional(),
  namespace: text.optional(),
  refreshToken: text.optional().describe("A refresh token; stored encrypted, never returned"),
});

export const UpdateIntegrationAuthBodySchema = CreateIntegrationAuthBodySchema.omit({ workspaceId: true }).partial();

const integrationFields = {
  app: text.optional(),
  appId: text.optional(),
  targetEnvironment: text.optional(),
  targetEnvironmentId: text.optional(),
  targetService: text.optional(),
  targetServiceId: text.optional(),
  owner: text.optional(),
  url: text.optional(),
  path: text.optional(),
  region: text.optional(),
  scope: text.optional(),
};

export const CreateIntegrationBodySchema = z.object({
  integrationAuthId: Uuid.describe("The integration auth holding the provider credentials"),
  sourceEnvironment: text.describe("Slug of the environment whose secrets the integration carries"),
  secretPath: SecretPath,
  isActive: z.boolean().default(true),
  ...integrationFields,
  metadata: IntegrationMetadataSchema.default({}),
});

export const UpdateIntegrationBodySchema = z.object({
  app: text.optional(),
  appId: text.optional(),
  isActive: z.boolean().optional(),
  // Optional here: leaving it out keeps the stored path (Infisical resets it to "/").
  secretPath: OptionalSecretPath,
  targetEnvironment: text.optional(),
  owner: text.optional(),
  environment: text.optional().describe("Slug of a new source environment"),
  path: text.optional(),
  metadata: IntegrationMetadataSchema.optional().describe("Merged into the stored metadata"),
  region: text.optional(),
});

const IntegrationIdParams = z.object({ integrationId: Uuid.describe("The integration") });
const IntegrationAuthIdParams = z.object({ integrationAuthId: Uuid.describe("The integration auth") });
const IntegrationEnvelope = z.object({ integration: IntegrationSchema });
const IntegrationAuthEnvelope = z.object({ integrationAuth: IntegrationAuthSchema });

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
  defineEndpoint({
    id: "projects.listIntegrationAuths",
    method: "GET",
    path: "/api/v1/workspace/{workspaceId}/authorizations",
    summary: "List a project's integration auths (provider credentials, never shown)",
    params: WorkspaceIdParams,
    response: z.object({ authorizations: z.array(IntegrationAuthSchema) }),
    permission: { scope: "project", subject: "integrations", action: "read" },
  }),
  defineEndpoint({
    id: "integrationAuths.create",
    method: "POST",
    path: "/api/v1/integration-auth/access-token",
    summary: "Store a provider's credentials for a project, encrypted",
    body: CreateIntegrationAuthBodySchema,
    response: IntegrationAuthEnvelope,
    permission: { scope: "project", subject: "integrations", action: "create" },
  }),
  defineEndpoint({
    id: "integrationAuths.get",
    method: "GET",
    path: "/api/v1/integration-auth/{integrationAuthId}",
    summary: "Read an integration auth (without its credentials)",
    params: IntegrationAuthIdParams,
    response: IntegrationAuthEnvelope,
    permission: { scope: "project", subject: "integrations", action: "read" },
  }),
  defineEndpoint({
    id: "integrationAuths.update",
    method: "PATCH",
    path: "/api/v1/integration-auth/{integrationAuthId}",
    summary: "Replace an integration auth's credentials or location",
    params: IntegrationAuthIdParams,
    body: UpdateIntegrationAuthBodySchema,
    response: IntegrationAuthEnvelope,
    permission: { scope: "project", subject: "integrations", action: "edit" },
  }),
  defineEndpoint({
    id: "integrationAuths.delete",
    method: "DELETE",
    path: "/api/v1/integration-auth/{integrationAuthId}",
    summary: "Delete an integration auth and the integrations that use it",
    params: IntegrationAuthIdParams,
    response: IntegrationAuthEnvelope,
    permission: { scope: "project", subject: "integrations", action: "delete" },
  }),
  defineEndpoint({
    id: "integrations.create",
    method: "POST",
    path: "/api/v1/integration",
    summary: "Create an integration (stored; this service does not sync it)",
    body: CreateIntegrationBodySchema,
    response: IntegrationEnvelope,
    permission: { scope: "project", subject: "integrations", action: "create" },
  }),
  defineEndpoint({
    id: "integrations.get",
    method: "GET",
    path: "/api/v1/integration/{integrationId}",
    summary: "Read one integration",
    params: IntegrationIdParams,
    response: IntegrationEnvelope,
    permission: { scope: "project", subject: "integrations", action: "read" },
  }),
  defineEndpoint({
    id: "integrations.update",
    method: "PATCH",
    path: "/api/v1/integration/{integrationId}",
    summary: "Change an integration's source, target or options",
    params: IntegrationIdParams,
    body: UpdateIntegrationBodySchema,
    response: IntegrationEnvelope,
    permission: { scope: "project", subject: "integrations", action: "edit" },
  }),
  defineEndpoint({
    id: "integrations.delete",
    method: "DELETE",
    path: "/api/v1/integration/{integrationId}",
    summary: "Delete an integration",
    params: IntegrationIdParams,
    query: z.object({
      shouldDeleteIntegrationSecrets: z
        .enum(["true", "false"])
        .optional()
        .describe("Ignored here: nothing was synced, so there is nothing to remove at the provider"),
    }),
    response: IntegrationEnvelope,
    permission: { scope: "project", subject: "integrations", action: "delete" },
  }),
] as const;
