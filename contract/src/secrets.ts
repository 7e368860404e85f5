import { z } from "zod";
import { queryWholeNumber, SecretPath, Timestamp, wholeNumber } from "./common.ts";
import { BATCH_BODY_LIMIT, defineEndpoint } from "./endpoint.ts";

/** What a caller without `readValue` sees in place of a value. */
export const HIDDEN_SECRET_VALUE = "<hidden-by-infisical>";

export const SecretNameSchema = z
  .string()
  .trim()
  .min(1, "Secret name is required")
  .refine((s) => !/[:/]/.test(s), "Secret names cannot contain a colon or a slash");

export const secretTypes = ["shared", "personal"] as const;

/** A "true"/"false" query flag; absent ones are left out (the service applies the default). */
const QueryFlag = (fallback: boolean) => z.stringbool().optional().describe(`Default ${fallback}`);

/** Who wrote a secret version. */
export const SecretActorSchema = z.object({
  actorId: z.string().nullable().optional(),
  actorType: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  membershipId: z.string().nullable().optional(),
  groupId: z.string().nullable().optional(),
});

/** The secret record as create answers it (no `secretValueHidden`). */
export const SecretRecordSchema = z.object({
  id: z.string(),
  _id: z.string(),
  workspace: z.string(),
  environment: z.string(),
  version: z.number().int(),
  type: z.string(),
  secretKey: z.string(),
  secretValue: z.string(),
  secretComment: z.string(),
  secretReminderNote: z.string().nullable().optional(),
  secretReminderRepeatDays: z.number().int().nullable().optional(),
  skipMultilineEncoding: z.boolean().nullable().optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  actor: SecretActorSchema.nullable().optional(),
  isRotatedSecret: z.boolean().optional(),
  rotationId: z.uuid().nullable().optional(),
});
export type SecretRecord = z.infer<typeof SecretRecordSchema>;

/** The secret as update and delete answer it: with whether its value was withheld. */
export const SecretSchema = SecretRecordSchema.extend({
  secretValueHidden: z.boolean(),
});
export type Secret = z.infer<typeof SecretSchema>;

export const SecretTagRefSchema = z.object({
  id: z.string(),
  slug: z.string(),
  color: z.string().nullable().optional(),
  name: z.string(),
});
export type SecretTagRef = z.infer<typeof SecretTagRefSchema>;

export const SecretMetadataEntrySchema = z.object({
  key: z.string(),
  value: z.string(),
  isEncrypted: z.boolean().optional(),
});
export type SecretMetadataEntry = z.infer<typeof SecretMetadataEntrySchema>;

/** The secret as get and list answer it: with its folder path, tags and metadata. */
export const SecretDetailSchema = SecretSchema.extend({
  secretPath: z.string(),
  tags: z.array(SecretTagRefSchema).optional(),
  secretMetadata: z.array(SecretMetadataEntrySchema).optional(),
});
export type SecretDetail = z.infer<typeof SecretDetailSchema>;

/** A listed secret: the get view, plus the digest of its value when one was asked for and may be given. */
export const ListedSecretSchema = SecretDetailSchema.extend({
  secretValueDigest: z
    .string()
    .optional()
    .describe(
      "Keyed digest of the value (HMAC-SHA256 under a per-project key, base64url): equal digests mean equal " +
        "values within one project. Sent only when includeValueDigests=true and the caller may read the value " +
        "(even with viewSecretValue=false); absent otherwise, and from servers that do not offer it.",
    ),
});
export type ListedSecret = z.infer<typeof ListedSecretSchema>;

/**
 * One secret as get answers it: the same, but a 2024 server's get leaves out `secretPath`, which
 * then reads as "" (not known). This service always sends it.
 */
export const SecretReadSchema = SecretDetailSchema.extend({ secretPath: z.string().default("") });

/** A secret provided by an import (no timestamps, no reminder fields; `workspace` may be ""). */
export const ImportedSecretSchema = SecretSchema.partial({
  createdAt: true,
  updatedAt: true,
}).extend({
  secretMetadata: z.array(SecretMetadataEntrySchema).optional(),
  tags: z.array(SecretTagRefSchema).optional(),
});

/** The secrets one import of the listed folder provides. */
export const ResolvedImportSchema = z.object({
  secretPath: z.string(),
  environment: z.string(),
  folderId: z.string().optional(),
  secrets: z.array(ImportedSecretSchema),
});
export type ResolvedImport = z.infer<typeof ResolvedImportSchema>;

/** One stored version of a secret: `id` is the version's own id. */
export const SecretVersionSchema = SecretRecordSchema.omit({ isRotatedSecret: true, rotationId: true }).extend({
  secretValueHidden: z.boolean(),
});
export type SecretVersion = z.infer<typeof SecretVersionSchema>;

/**
 * The project a secret call addresses. Infisical's v3 paths name it `workspaceId` (or a slug),
 * its v4 paths `projectId`; both paths take the same schema so one handler serves both.
 */
const projectRef = {
  workspaceId: z.string().trim().min(1).optional(),
  projectId: z.string().trim().min(1).optional(),
  workspaceSlug: z.string().trim().min(1).optional(),
  projectSlug: z.string().trim().min(1).optional(),
};
type ProjectRefInput = { workspaceId?: string; projectId?: string; workspaceSlug?: string; projectSlug?: string };
const namesProject = (b: ProjectRefInput) => Boolean(b.workspaceId || b.projectId || b.workspaceSlug || b.projectSlug);
const projectRequired = { message: "Give workspaceId or projectSlug", path: ["workspaceId"] };

const reminderFields = {
  secretReminderNote: z.string().max(1024).nullable().optional(),
  secretReminderRepeatDays: wholeNumber(1, 365).nullable().optional(),
};
const metadataInput = z.array(z.object({ key: z.string().trim().min(1), value: z.string().default("") }));

export const ListSecretsQuerySchema = z.object({
  ...projectRef,
  environment: z.string().trim().min(1).optional(),
  secretPath: SecretPath,
  viewSecretValue: QueryFlag(true),
  expandSecretReferences: QueryFlag(false),
  recursive: QueryFlag(false),
  include_imports: QueryFlag(false),
  includeValueDigests: QueryFlag(false).describe(
    "Default false. When true, each listed secret whose value the caller may read carries secretValueDigest, " +
      "to compare values across environments without revealing them",
  ),
  tagSlugs: z
    .string()
    .optional()
    .transform((s) =>
      s
        ?.split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    )
    .describe("Comma-separated tag slugs: only secrets with one of them"),
});
export type ListSecretsQuery = z.output<typeof ListSecretsQuerySchema>;

export const GetSecretQuerySchema = z.object({
  ...projectRef,
  environment: z.string().trim().min(1).optional(),
  secretPath: SecretPath,
  version: queryWholeNumber(1).optional().describe("Read this stored version instead of the live one"),
  type: z.enum(secretTypes).optional().describe("Default shared"),
  viewSecretValue: QueryFlag(true),
  expandSecretReferences: QueryFlag(false),
  include_imports: QueryFlag(false),
});
export type GetSecretQuery = z.output<typeof GetSecretQuerySchema>;

export const CreateSecretBodySchema = z
  .object({
    ...projectRef,
    environment: z.string().trim().min(1, "Environment is required"),
    secretPath: SecretPath,
    secretValue: z.string(),
    secretComment: z.string().default(""),
    secretMetadata: metadataInput.optional(),
    tagIds: z.array(z.string()).optional(),
    skipMultilineEncoding: z.boolean().optional(),
    type: z.enum(secretTypes).default("shared"),
    ...reminderFields,
  })
  .refine(namesProject, projectRequired);
export type CreateSecretBody = z.output<typeof CreateSecretBodySchema>;

export const UpdateSecretBodySchema = z
  .object({
    ...projectRef,
    environment: z.string().trim().min(1, "Environment is required"),
    secretPath: SecretPath,
    secretValue: z.string().optional(),
    skipMultilineEncoding: z.boolean().optional(),
    type: z.enum(secretTypes).default("shared"),
    tagIds: z.array(z.string()).optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    secretMetadata: metadataInput.optional(),
    ...reminderFields,
    secretReminderRecipients: z.array(z.string()).optional(),
    newSecretName: SecretNameSchema.optional(),
    secretComment: z.string().optional(),
  })
  .refine(namesProject, projectRequired);
export type UpdateSecretBody = z.output<typeof UpdateSecretBodySchema>;

export const DeleteSecretBodySchema = z
  .object({
    ...projectRef,
    environment: z.string().trim().min(1, "Environment is required"),
    secretPath: SecretPath,
    type: z.enum(secretTypes).default("shared"),
  })
  .refine(namesProject, projectRequired);
export type DeleteSecretBody = z.output<typeof DeleteSecretBodySchema>;

const SecretNameParams = z.object({ secretName: z.string().min(1).describe("The secret's name") });
const ListSecretsResponse = z.object({
  secrets: z.array(ListedSecretSchema),
  imports: z.array(ResolvedImportSchema).optional(),
});

/** The raw-secret operations; each is served on Infisical's v3 path and again on its v4 path. */
const secretOperations = {
  list: {
    method: "GET",
    summary: "List the secrets of an environment and folder",
    query: ListSecretsQuerySchema,
    response: ListSecretsResponse,
    permission: { scope: "project", subject: "secrets", action: "describeSecret" },
  },
  get: {
    method: "GET",
    summary: "Read one secret by name",
    params: SecretNameParams,
    query: GetSecretQuerySchema,
    response: z.object({ secret: SecretReadSchema }),
    permission: { scope: "project", subject: "secrets", action: "describeSecret" },
  },
  create: {
    method: "POST",
    summary: "Create a secret",
    params: z.object({ secretName: SecretNameSchema.describe("The new secret's name") }),
    body: CreateSecretBodySchema,
    response: z.object({ secret: SecretRecordSchema }),
    permission: { scope: "project", subject: "secrets", action: "create" },
  },
  update: {
    method: "PATCH",
    summary: "Update a secret's value, comment, metadata or name",
    params: z.object({ secretName: z.string().min(1).describe("The secret's current name") }),
    body: UpdateSecretBodySchema,
    response: z.object({ secret: SecretSchema }),
    permission: { scope: "project", subject: "secrets", action: "edit" },
  },
  delete: {
    method: "DELETE",
    summary: "Delete a secret",
    params: SecretNameParams,
    body: DeleteSecretBodySchema,
    response: z.object({ secret: SecretSchema }),
    permission: { scope: "project", subject: "secrets", action: "delete" },
  },
} as const;

// ---- batches ----

/** The folder a batch works in; the items of one batch all live there. */
const batchTarget = {
  ...projectRef,
  environment: z.string().trim().min(1, "Environment is required"),
  secretPath: SecretPath,
};

export const BatchCreateItemSchema = z.object({
  secretKey: SecretNameSchema,
  secretValue: z.string(),
  secretComment: z.string().default(""),
  skipMultilineEncoding: z.boolean().optional(),
  tagIds: z.array(z.string()).optional(),
  secretMetadata: metadataInput.optional(),
  type: z.enum(secretTypes).default("shared"),
  ...reminderFields,
});
export type BatchCreateItem = z.output<typeof BatchCreateItemSchema>;

export const BatchCreateBodySchema = z
  .object({
    ...batchTarget,
    secrets: z
      .array(BatchCreateItemSchema)
      .min(1)
      .describe("The secrets to create; the same key twice keeps one secret with the last item's fields"),
  })
  .refine(namesProject, projectRequired);
export type BatchCreateBody = z.output<typeof BatchCreateBodySchema>;

export const BatchUpdateItemSchema = z.object({
  secretKey: SecretNameSchema.describe("The secret's current name"),
  newSecretName: SecretNameSchema.optional(),
  secretValue: z.string().optional().describe("Left out: the value is kept (a 2024 server requires it)"),
  secretComment: z.string().optional(),
  skipMultilineEncoding: z.boolean().optional(),
  tagIds: z.array(z.string()).optional(),
  secretMetadata: metadataInput.optional(),
  type: z.enum(secretTypes).default("shared"),
  ...reminderFields,
  secretReminderRecipients: z.array(z.string()).optional(),
});
export type BatchUpdateItem = z.output<typeof BatchUpdateItemSchema>;

export const batchUpdateModes = ["failOnNotFound", "upsert"] as const;

export const BatchUpdateBodySchema = z
  .object({
    ...batchTarget,
    mode: z
      .enum(batchUpdateModes)
      .default("failOnNotFound")
      .describe('upsert: a key that does not exist is created (with its value, "" when none is given)'),
    secrets: z.array(BatchUpdateItemSchema).min(1),
  })
  .refine(namesProject, projectRequired);
export type BatchUpdateBody = z.output<typeof BatchUpdateBodySchema>;

export const BatchDeleteItemSchema = z.object({
  secretKey: SecretNameSchema,
  type: z.enum(secretTypes).default("shared"),
});

export const BatchDeleteBodySchema = z
  .object({ ...batchTarget, secrets: z.array(BatchDeleteItemSchema).min(1) })
  .refine(namesProject, projectRequired);
export type BatchDeleteBody = z.output<typeof BatchDeleteBodySchema>;

/**
 * Many secrets of one folder in one request, all or nothing; each served on Infisical's v3 path
 * and again on its v4 path. Create answers like the single create (no `secretValueHidden`),
 * update and delete like theirs.
 */
const batchOperations = {
  batchCreate: {
    method: "POST",
    summary: "Create many secrets in one folder, all or nothing",
    body: BatchCreateBodySchema,
    bodyLimit: BATCH_BODY_LIMIT,
    response: z.object({ secrets: z.array(SecretRecordSchema) }),
    permission: { scope: "project", subject: "secrets", action: "create" },
  },
  batchUpdate: {
    method: "PATCH",
    summary: "Update (or, in upsert mode, create) many secrets in one folder, all or nothing",
    body: BatchUpdateBodySchema,
    bodyLimit: BATCH_BODY_LIMIT,
    response: z.object({ secrets: z.array(SecretSchema) }),
    permission: { scope: "project", subject: "secrets", action: "edit" },
  },
  batchDelete: {
    method: "DELETE",
    summary: "Delete many secrets of one folder, all or nothing",
    body: BatchDeleteBodySchema,
    bodyLimit: BATCH_BODY_LIMIT,
    response: z.object({ secrets: z.array(SecretSchema) }),
    permission: { scope: "project", subject: "secrets", action: "delete" },
  },
} as const;

export const secretEndpoints = [
  defineEndpoint({ id: "secrets.list", path: "/api/v3/secrets/raw", ...secretOperations.list }),
  defineEndpoint({ id: "secrets.listV4", path: "/api/v4/secrets", ...secretOperations.list }),
  defineEndpoint({ id: "secrets.get", path: "/api/v3/secrets/raw/{secretName}", ...secretOperations.get }),
  defineEndpoint({ id: "secrets.getV4", path: "/api/v4/secrets/{secretName}", ...secretOperations.get }),
  defineEndpoint({ id: "secrets.create", path: "/api/v3/secrets/raw/{secretName}", ...secretOperations.create }),
  defineEndpoint({ id: "secrets.createV4", path: "/api/v4/secrets/{secretName}", ...secretOperations.create }),
  defineEndpoint({ id: "secrets.update", path: "/api/v3/secrets/raw/{secretName}", ...secretOperations.update }),
  defineEndpoint({ id: "secrets.updateV4", path: "/api/v4/secrets/{secretName}", ...secretOperations.update }),
  defineEndpoint({ id: "secrets.delete", path: "/api/v3/secrets/raw/{secretName}", ...secretOperations.delete }),
  defineEndpoint({ id: "secrets.deleteV4", path: "/api/v4/secrets/{secretName}", ...secretOperations.delete }),
  defineEndpoint({ id: "secrets.batchCreate", path: "/api/v3/secrets/batch/raw", ...batchOperations.batchCreate }),
  defineEndpoint({ id: "secrets.batchCreateV4", path: "/api/v4/secrets/batch", ...batchOperations.batchCreate }),
  defineEndpoint({ id: "secrets.batchUpdate", path: "/api/v3/secrets/batch/raw", ...batchOperations.batchUpdate }),
  defineEndpoint({ id: "secrets.batchUpdateV4", path: "/api/v4/secrets/batch", ...batchOperations.batchUpdate }),
  defineEndpoint({ id: "secrets.batchDelete", path: "/api/v3/secrets/batch/raw", ...batchOperations.batchDelete }),
  defineEndpoint({ id: "secrets.batchDeleteV4", path: "/api/v4/secrets/batch", ...batchOperations.batchDelete }),
  defineEndpoint({
    id: "secrets.getById",
    method: "GET",
    path: "/api/v3/secrets/raw/id/{secretId}",
    summary: "Read one secret by id, with its folder path (needs readValue)",
    params: z.object({ secretId: z.string().min(1).describe("The secret") }),
    response: z.object({ secret: SecretDetailSchema }),
    permission: { scope: "project", subject: "secrets", action: "readValue" },
  }),
  defineEndpoint({
    id: "secretVersions.list",
    method: "GET",
    path: "/api/v1/secret/{secretId}/secret-versions",
    summary: "List a secret's stored versions, newest first (restore one by updating with its value)",
    params: z.object({ secretId: z.string().min(1).describe("The secret") }),
    query: z.object({
      offset: queryWholeNumber(0).default(0),
      limit: queryWholeNumber(1, 100).default(20),
    }),
    response: z.object({ secretVersions: z.array(SecretVersionSchema) }),
    permission: { scope: "project", subject: "secret-rollback", action: "read" },
  }),
] as const;
