import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type SecretFolder, secretsApi } from "../api";
import { secretKeys } from "../queries";
import { filesApi } from "./api";
import { type ImportPlan, planImport, upsertItems } from "./import-plan";
import type { ParsedFile } from "./import-entries";

/**
 * Compares a read file with the folder: one list call with values, used to sort the file's keys
 * and then dropped (the plan keeps none of them). Not kept in any cache once the dialog is gone.
 */
export function usePlanImport(folder: SecretFolder) {
  return useMutation({
    mutationFn: async (parsed: ParsedFile): Promise<ImportPlan> => planImport(parsed, await filesApi.current(folder)),
    gcTime: 0,
  });
}

/**
 * Writes a plan's new and changed keys in one upsert batch: all of them, or (on any error)
 * none. The folder's list and any value shown are read again afterwards.
 */
export function useImportSecrets(folder: SecretFolder) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (plan: ImportPlan) => {
      await secretsApi.updateSecrets(folder, upsertItems(plan), { upsert: true });
      return plan.counts;
    },
    gcTime: 0,
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [...secretKeys.folder(folder), "value"] });
      // Not awaited: the dialog closes as soon as the batch is written, and the table (thousands
      // of rows, after a big import) takes the folder's new list when it arrives.
      void queryClient.invalidateQueries({ queryKey: secretKeys.list(folder) });
    },
  });
}

/** Reads the folder's values for one export and gives them to `deliver`; nothing else keeps them. */
export function useExportSecrets(folder: SecretFolder) {
  return useMutation({
    mutationFn: async ({
      withImports,
      deliver,
    }: {
      withImports: boolean;
      deliver: (exported: Awaited<ReturnType<typeof filesApi.exported>>) => void;
    }) => {
      const exported = await filesApi.exported(folder, withImports);
      deliver(exported);
      return { count: exported.secrets.length, hidden: exported.hidden };
    },
    gcTime: 0,
  });
}
