import { z } from "zod";
import { SecretPath, Timestamp } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

/** What a caller without `readValue` sees in place of a value. */
export const HIDDEN_SECRET_VALUE = "<hidden-by-infisical>";

export const SecretNameSchema = z
  .string()
  .trim()
  .min(1, "Secret name is required")
  .refine((s) => !/[:/]/.test(s), "Secret names cannot contain a colon or a slash");

export const SecretSchema = z.object({
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
  actor: z
    .object({
      actorId: z.string().nullable().optional(),
      actorType: z.string().nullable().optional(),
      name: z.string().nullable().optional(),
      membershipId: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  isRotatedSecret: z.boolean().optional(),
  rotationId: z.uuid().nullable().optional(),
  secretValueHidden: z.boolean(),
});
export type Secret = z.infer<typeof SecretSchema>;

export const UpdateSecretBodySchema = z
  .object({
    workspaceId: z.string().trim().min(1).optional(),
    projectSlug: z.string().trim().min(1).optional(),
    environment: z.string().trim().min(1, "Environment is required"),
    secretPath: SecretPath,
    secretValue: z.string().optional(),
    skipMultilineEncoding: z.boolean().optional(),
    type: z.enum(["shared", "personal"]).default("shared"),
    tagIds: z.array(z.string()).optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    secretMetadata: z.array(z.object({ key: z.string().trim().min(1), value: z.string().default("") })).optional(),
    secretReminderNote: z.string().max(1024).nullable().optional(),
    secretReminderRepeatDays: z.number().int().min(1).max(365).nullable().optional(),
    secretReminderRecipients: z.array(z.string()).optional(),
    newSecretName: SecretNameSchema.optional(),
    secretComment: z.string().optional(),
  })
  .refine((b) => b.workspaceId || b.projectSlug, {
    message: "Give workspaceId or projectSlug",
    path: ["workspaceId"],
  });

export const secretEndpoints = [
  defineEndpoint({
    id: "secrets.update",
    method: "PATCH",
    path: "/api/v3/secrets/raw/{secretName}",
    summary: "Update a secret's value, comment, metadata or name",
    params: z.object({ secretName: z.string().min(1).describe("The secret's current name") }),
    body: UpdateSecretBodySchema,
    response: z.object({ secret: SecretSchema }),
    permission: { scope: "project", subject: "secrets", action: "edit" },
  }),
] as const;
