import { z } from "zod";
import { NullableTimestamp, OptionalSecretPath, SecretPath, Timestamp, Uuid, wholeNumber } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";
import { ImportedSecretSchema } from "./secrets.ts";

export const SecretImportSchema = z.object({
  id: Uuid,
  version: z.number().int(),
  importPath: z.string(),
  position: z.number().int(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  folderId: Uuid,
  isReplication: z.boolean().nullable().optional(),
  isReplicationSuccess: z.boolean().nullable().optional().describe("Always null here: nothing is replicated"),
  replicationStatus: z.string().nullable().optional().describe("Always null here: nothing is replicated"),
  lastReplicated: NullableTimestamp.optional(),
  isReserved: z.boolean().nullable().optional(),
  importEnv: z.object({ name: z.string(), slug: z.string(), id: z.string() }),
});
export type SecretImport = z.infer<typeof SecretImportSchema>;

const text = z.string().trim().min(1);

/** The folder an import call is about: the project, its environment (slug) and the folder's path. */
const importingFolder = {
  workspaceId: text.describe("The project"),
  environment: text.describe("Slug of the importing folder's environment"),
  path: SecretPath.describe("Path of the importing folder"),
};

export const ListSecretImportsQuerySchema = z.object(importingFolder);

export const CreateSecretImportBodySchema = z.object({
  ...importingFolder,
  import: z.object({
    environment: text.describe("Slug of the environment to import from"),
    path: SecretPath.describe("Path of the folder to import from"),
  }),
  isReplication: z.boolean().default(false).describe("Stored and returned; this service does not replicate"),
});

export const UpdateSecretImportBodySchema = z.object({
  ...importingFolder,
  import: z.object({
    environment: text.optional(),
    path: OptionalSecretPath,
    position: wholeNumber(1).optional(),
  }),
});

export const DeleteSecretImportBodySchema = z.object(importingFolder);

/** The secrets one import provides, with the environment they come from. */
export const ImportedFolderSchema = z.object({
  secretPath: z.string(),
  environment: z.string(),
  environmentInfo: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
  folderId: z.string().optional(),
  secrets: z.array(ImportedSecretSchema),
});
export type ImportedFolder = z.infer<typeof ImportedFolderSchema>;

const SecretImportEnvelope = z.object({ message: z.string(), secretImport: SecretImportSchema });
const SecretImportIdParams = z.object({ secretImportId: Uuid.describe("The import") });

export const secretImportEndpoints = [
  defineEndpoint({
    id: "secretImports.list",
    method: "GET",
    path: "/api/v1/secret-imports",
    summary: "List a folder's imports in position order",
    query: ListSecretImportsQuerySchema,
    response: z.object({ message: z.string(), secretImports: z.array(SecretImportSchema) }),
    permission: { scope: "project", subject: "secret-imports", action: "read" },
  }),
  defineEndpoint({
    id: "secretImports.create",
    method: "POST",
    path: "/api/v1/secret-imports",
    summary: "Import another folder's secrets into a folder, after its last import",
    body: CreateSecretImportBodySchema,
    response: SecretImportEnvelope,
    permission: { scope: "project", subject: "secret-imports", action: "create" },
  }),
  defineEndpoint({
    id: "secretImports.update",
    method: "PATCH",
    path: "/api/v1/secret-imports/{secretImportId}",
    summary: "Change an import's source or move it to another position",
    params: SecretImportIdParams,
    body: UpdateSecretImportBodySchema,
    response: SecretImportEnvelope,
    permission: { scope: "project", subject: "secret-imports", action: "edit" },
  }),
  defineEndpoint({
    id: "secretImports.delete",
    method: "DELETE",
    path: "/api/v1/secret-imports/{secretImportId}",
    summary: "Remove an import; the later ones move up",
    params: SecretImportIdParams,
    body: DeleteSecretImportBodySchema,
    response: SecretImportEnvelope,
    permission: { scope: "project", subject: "secret-imports", action: "delete" },
  }),
  defineEndpoint({
    id: "secretImports.listSecrets",
    method: "GET",
    path: "/api/v1/secret-imports/secrets/raw",
    summary: "The secrets each of a folder's imports provides, in position order",
    query: ListSecretImportsQuerySchema,
    response: z.object({ secrets: z.array(ImportedFolderSchema) }),
    permission: { scope: "project", subject: "secret-imports", action: "read" },
  }),
] as const;
