import {
  type BatchCreateBody,
  type BatchDeleteBody,
  type BatchUpdateBody,
  type CreateSecretBody,
  type DeleteSecretBody,
  type GetSecretQuery,
  type ListSecretsQuery,
  ResolvedImportSchema,
  type UpdateSecretBody,
} from "@keyhold/contract";
import { z } from "zod";
import type { Actor } from "../domain/access-tokens.ts";
import type { FolderService } from "../domain/folder-service.ts";
import type { SecretBatches } from "../domain/secret-batch.ts";
import type { SecretService } from "../domain/secret-service.ts";
import type { TagService } from "../domain/tag-service.ts";
import { type HandlerMap, shapedAnswer } from "./handler-types.ts";

type NameParams = { secretName: string };

const importsSchema = z.array(ResolvedImportSchema);

type SecretCoreEndpointId =
  | `secrets.${"list" | "listV4" | "get" | "getV4" | "create" | "createV4" | "update" | "updateV4" | "delete" | "deleteV4"}`
  | `secrets.${"batchCreate" | "batchUpdate" | "batchDelete"}${"" | "V4"}`
  | "pitBatch.commit"
  | "secrets.getById"
  | "secretVersions.list"
  | `folders.${"create" | "list" | "get" | "update" | "delete"}`
  | `tags.${"list" | "create" | "delete"}`;

export interface SecretCoreServices {
  secrets: SecretService;
  batches: SecretBatches;
  folders: FolderService;
  tags: TagService;
}

/**
 * The handlers of raw secrets, their versions, folders and tags. Infisical's v3 and v4 paths of
 * one operation share one handler (their contract rows share one schema).
 */
export function secretCoreHandlers({
  secrets,
  batches,
  folders,
  tags,
}: SecretCoreServices): Pick<HandlerMap, SecretCoreEndpointId> {
  // Typed by what they read, so each fits both of its endpoints (v3 and v4 share their schemas).
  // A list of thousands is built to the response schema by the service and sent as it is; the
  // imports part, which other code adds, is still shaped by its schema.
  const list = async ({ actor, query }: { actor: Actor; query: ListSecretsQuery }) => {
    const answer = await secrets.list(actor, query);
    return shapedAnswer({ secrets: answer.secrets, imports: importsSchema.parse(answer.imports) });
  };
  const get = async ({ actor, params, query }: { actor: Actor; params: NameParams; query: GetSecretQuery }) => ({
    secret: await secrets.get(actor, params.secretName, query),
  });
  const create = async ({ actor, params, body }: { actor: Actor; params: NameParams; body: CreateSecretBody }) => ({
    secret: await secrets.create(actor, params.secretName, body),
  });
  const update = async ({ actor, params, body }: { actor: Actor; params: NameParams; body: UpdateSecretBody }) => ({
    secret: await secrets.update(actor, params.secretName, body),
  });
  const remove = async ({ actor, params, body }: { actor: Actor; params: NameParams; body: DeleteSecretBody }) => ({
    secret: await secrets.delete(actor, params.secretName, body),
  });
  const batchCreate = async ({ actor, body }: { actor: Actor; body: BatchCreateBody }) => ({
    secrets: await batches.create(actor, body),
  });
  const batchUpdate = async ({ actor, body }: { actor: Actor; body: BatchUpdateBody }) => ({
    secrets: await batches.update(actor, body),
  });
  const batchDelete = async ({ actor, body }: { actor: Actor; body: BatchDeleteBody }) => ({
    secrets: await batches.delete(actor, body),
  });
  return {
    "secrets.list": list,
    "secrets.listV4": list,
    "secrets.get": get,
    "secrets.getV4": get,
    "secrets.create": create,
    "secrets.createV4": create,
    "secrets.update": update,
    "secrets.updateV4": update,
    "secrets.delete": remove,
    "secrets.deleteV4": remove,
    "secrets.batchCreate": batchCreate,
    "secrets.batchCreateV4": batchCreate,
    "secrets.batchUpdate": batchUpdate,
    "secrets.batchUpdateV4": batchUpdate,
    "secrets.batchDelete": batchDelete,
    "secrets.batchDeleteV4": batchDelete,
    "pitBatch.commit": async ({ actor, body }) => batches.commit(actor, body),
    "secrets.getById": async ({ actor, params }) => ({ secret: await secrets.getById(actor, params.secretId) }),
    "secretVersions.list": async ({ actor, params, query }) => ({
      secretVersions: await secrets.versions(actor, params.secretId, query),
    }),
    "folders.create": async ({ actor, body }) => ({ folder: await folders.create(actor, body) }),
    "folders.list": async ({ actor, query }) => ({ folders: await folders.list(actor, query) }),
    "folders.get": async ({ actor, params }) => ({ folder: await folders.get(actor, params.folderId) }),
    "folders.update": async ({ actor, params, body }) => ({
      folder: await folders.update(actor, params.folderId, body),
    }),
    "folders.delete": async ({ actor, params, body }) => ({
      folder: await folders.delete(actor, params.folderId, body),
    }),
    "tags.list": async ({ actor, params }) => ({ workspaceTags: await tags.list(actor, params.workspaceId) }),
    "tags.create": async ({ actor, params, body }) => ({
      workspaceTag: await tags.create(actor, params.workspaceId, body),
    }),
    "tags.delete": async ({ actor, params }) => ({
      workspaceTag: await tags.delete(actor, params.workspaceId, params.tagId),
    }),
  };
}
