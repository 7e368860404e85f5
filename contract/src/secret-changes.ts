import { z } from "zod";
import { SecretPath } from "./common.ts";
import { BATCH_BODY_LIMIT, defineEndpoint } from "./endpoint.ts";
import { FolderCommitSchema } from "./secret-snapshots.ts";
import {
  BatchCreateItemSchema,
  BatchDeleteItemSchema,
  BatchUpdateItemSchema,
  SecretRecordSchema,
  SecretSchema,
} from "./secrets.ts";

/**
 * A folder's pending changes saved as one commit. Infisical's dashboard saves its pending changes
 * through an endpoint of this path; its shape is not in the recordings, so this body and answer
 * are Keyhold's own, built from the batch endpoints' items and answers.
 */
export const CommitChangesBodySchema = z
  .object({
    projectId: z.string().trim().min(1).describe("The project's id"),
    environment: z.string().trim().min(1, "Environment is required").describe("Environment slug"),
    secretPath: SecretPath.describe("The folder the changes are made in (default /)"),
    message: z.string().trim().min(1).max(256).describe("The commit's message, shown in the folder's history"),
    changes: z
      .object({
        secrets: z.object({
          create: z
            .array(BatchCreateItemSchema)
            .optional()
            .describe("As the batch create's items; the same key twice keeps the last"),
          update: z
            .array(BatchUpdateItemSchema)
            .optional()
            .describe("As the batch update's items (newSecretName renames); every key must exist"),
          delete: z.array(BatchDeleteItemSchema).optional().describe("As the batch delete's items"),
        }),
      })
      .describe("Applied all or nothing: the deletes first, then the updates, then the creates"),
  })
  .describe("Keyhold's body (Infisical's dashboard endpoint of this path is not recorded)");
export type CommitChangesBody = z.output<typeof CommitChangesBodySchema>;

export const CommitChangesResultSchema = z.object({
  commit: FolderCommitSchema.describe("The one commit of the folder that records the changes"),
  secrets: z.object({
    created: z.array(SecretRecordSchema).describe("As the batch create answers them"),
    updated: z.array(SecretSchema).describe("As the batch update answers them"),
    deleted: z.array(SecretSchema).describe("As the batch delete answers them"),
  }),
});
export type CommitChangesResult = z.output<typeof CommitChangesResultSchema>;

export const secretChangeEndpoints = [
  defineEndpoint({
    id: "pitBatch.commit",
    method: "POST",
    path: "/api/v1/pit/batch/commit",
    summary:
      "Apply a folder's creates, updates (renames) and deletes all or nothing, recorded as one commit with a message",
    body: CommitChangesBodySchema,
    bodyLimit: BATCH_BODY_LIMIT,
    response: CommitChangesResultSchema,
    permission: { scope: "project", subject: "secrets", action: "edit" },
  }),
] as const;
