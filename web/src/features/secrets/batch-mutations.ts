import { errorNames } from "@keyhold/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, isMissingRoute } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";
import { type SecretFolder, secretsApi } from "./api";
import { secretKeys } from "./queries";
import { type CommitOptions, type SendBatch, saveStaged } from "./staging/save-staged";
import type { FolderBatch, Staged } from "./staging/staged-changes";

/*
 * Writes of many secrets at once, each kind one request to a batch endpoint (all or nothing on
 * the server). After each, the lists of the folders it touched are read again: a batch may
 * change hundreds of rows, and the list is one request. Toasts and closing belong to the call site.
 */

/**
 * Whether a refused commit means the server has no such endpoint for this session, rather than a
 * refusal of one of its items (which the batches would meet too, after some had been applied):
 * a route the server does not know (404 "Route … not found", not a missing key or folder) or refuses to this
 * kind of caller (403, not its "PermissionDenied" of an item; Infisical answers identities so).
 */
function commitUnsupported(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  // The BFF names both NotFound: only the server's own words tell a missing route.
  if (error.status === 404) return isMissingRoute(error);
  if (error.status === 403) return error.code !== errorNames.permissionDenied;
  return false;
}

/**
 * Saves the staged changes of every folder (see `saveStaged`): each folder's in one request that
 * the server records as one commit with `message`, or, where the server has no such endpoint for
 * this session (404, or 403 as Infisical answers identities there), in its batches. Resolves
 * with what is still pending.
 */
export function useSaveStaged(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ staged, message }: { staged: Staged; message?: string | undefined }) => {
      const send: SendBatch = (place, kind, items) => {
        const folder = { projectId, ...place };
        if (kind === "create") return secretsApi.createSecrets(folder, items as FolderBatch["create"]);
        if (kind === "update") return secretsApi.updateSecrets(folder, items as FolderBatch["update"]);
        return secretsApi.deleteSecrets(
          folder,
          (items as FolderBatch["delete"]).map((item) => item.secretKey),
        );
      };
      const commit: CommitOptions = {
        send: (batch, text) =>
          secretsApi.commitSecretChanges(
            { projectId, ...batch.place },
            {
              ...(batch.delete.length > 0 && { delete: batch.delete }),
              ...(batch.update.length > 0 && { update: batch.update }),
              ...(batch.create.length > 0 && { create: batch.create }),
            },
            text,
          ),
        message,
        unsupported: commitUnsupported,
      };
      return saveStaged(staged, send, (error) => errorSummary(error, "The server refused the changes"), commit);
    },
    // Partly applied or not, what the server holds now is read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: secretKeys.project(projectId) }),
  });
}

/** Deletes many secrets of one folder in one request. */
export function useDeleteSecrets(folder: SecretFolder) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (secretKeys: readonly string[]) => secretsApi.deleteSecrets(folder, secretKeys),
    onSettled: () => queryClient.invalidateQueries({ queryKey: secretKeys.folder(folder) }),
  });
}

/**
 * The values and comments of some of a folder's secrets, read because a person asked to move or
 * copy them: one read of the folder with values, of which only the chosen keys are kept (and
 * those only until the write that needs them is sent).
 */
async function readChosen(folder: SecretFolder, chosen: readonly string[]) {
  const wanted = new Set(chosen);
  const secrets = await secretsApi.listWithValues(folder);
  const found = secrets.filter((secret) => wanted.has(secret.secretKey));
  const hidden = found.filter((secret) => secret.secretValueHidden).map((secret) => secret.secretKey);
  if (hidden.length > 0) throw new Error(`You may not read the value of ${hidden.join(", ")}.`);
  const missing = chosen.filter((key) => !found.some((secret) => secret.secretKey === key));
  if (missing.length > 0) throw new Error(`${missing.join(", ")} no longer exist here.`);
  return found.map(({ secretKey, secretValue, secretComment, skipMultilineEncoding }) => ({
    secretKey,
    secretValue,
    secretComment,
    ...(skipMultilineEncoding ? { skipMultilineEncoding } : {}),
  }));
}

/**
 * Moves secrets to another folder of the same environment: one create there (which refuses, and
 * changes nothing, when a key exists there), then one delete here.
 */
export function useMoveSecrets(folder: SecretFolder) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ secretKeys: keys, toPath }: { secretKeys: readonly string[]; toPath: string }) => {
      const items = await readChosen(folder, keys);
      await secretsApi.createSecrets({ ...folder, secretPath: toPath }, items);
      await secretsApi.deleteSecrets(folder, keys);
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: [...secretKeys.project(folder.projectId), folder.environment] }),
  });
}

/**
 * Copies secrets to the same folder of other environments: one update per environment in
 * upsert mode, so a key that exists there takes the copied value and one that does not is created.
 */
export function useCopySecrets(folder: SecretFolder) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      secretKeys: keys,
      environments,
    }: {
      secretKeys: readonly string[];
      environments: string[];
    }) => {
      const items = await readChosen(folder, keys);
      // One request per environment, sent together; each is all or nothing.
      const results = await Promise.allSettled(
        environments.map((environment) =>
          secretsApi.updateSecrets({ ...folder, environment }, items, { upsert: true }),
        ),
      );
      const failed = environments.filter((_, index) => results[index]?.status === "rejected");
      if (failed.length > 0) {
        const first = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
        throw new Error(
          `Not copied to ${failed.join(", ")}: ${errorSummary(first.reason, "the server refused")}` +
            (failed.length < environments.length
              ? ` (copied to ${environments.filter((env) => !failed.includes(env)).join(", ")})`
              : ""),
        );
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: secretKeys.project(folder.projectId) }),
  });
}
