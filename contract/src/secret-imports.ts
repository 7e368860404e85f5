import { z } from "zod";
import { NullableTimestamp, SecretPath, Timestamp, Uuid } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

export const SecretImportSchema = z.object({
  id: Uuid,
  version: z.number().int(),
  importPath: z.string(),
  position: z.number().int(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  folderId: Uuid,
  isReplication: z.boolean().nullable().optional(),
  isReplicationSuccess: z.boolean().nullable().optional(),
  replicationStatus: z.string().nullable().optional(),
  lastReplicated: NullableTimestamp.optional(),
  isReserved: z.boolean().nullable().optional(),
  importEnv: z.object({ name: z.string(), slug: z.string(), id: z.string() }),
});
export type SecretImport = z.infer<typeof SecretImportSchema>;

export const secretImportEndpoints = [
  defineEndpoint({
    id: "secretImports.update",
    method: "PATCH",
    path: "/api/v1/secret-imports/{secretImportId}",
    summary: "Change an import's source or move it to another position",
    params: z.object({ secretImportId: Uuid.describe("The import") }),
    body: z.object({
      workspaceId: z.string().trim().min(1),
      environment: z.string().trim().min(1),
      path: SecretPath,
      import: z.object({
        environment: z.string().trim().min(1).optional(),
        path: SecretPath.optional(),
        position: z.number().int().min(1).optional(),
      }),
    }),
    response: z.object({ message: z.string(), secretImport: SecretImportSchema }),
    permission: { scope: "project", subject: "secret-imports", action: "edit" },
  }),
] as const;
