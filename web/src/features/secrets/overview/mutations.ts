import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type SecretFolder, secretsApi } from "../api";
import { secretKeys } from "../queries";

/** What to write in one environment: new keys (create), or values of keys there or not (upsert). */
export interface EnvironmentWrite {
  environment: string;
  mode: "create" | "upsert" | "update";
  items: readonly { secretKey: string; secretValue: string }[];
}

export interface WriteOutcome {
  /** The environments written, in the order asked. */
  written: string[];
  /** The environments whose batch failed (nothing written there), with why. */
  failed: { environment: string; error: unknown }[];
}

/**
 * Writes values across environments: one batch request per environment (a batch is one
 * environment's folder), all at once; each is all or nothing on the server. What each
 * environment's folder showed is read again afterwards, written or not. The call site says
 * what happened (the outcome names the environments that failed).
 */
export function useWriteAcross(projectId: string, secretPath: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (writes: readonly EnvironmentWrite[]): Promise<WriteOutcome> => {
      const results = await Promise.allSettled(
        writes.map(({ environment, mode, items }) => {
          const folder: SecretFolder = { projectId, environment, secretPath };
          return mode === "create"
            ? secretsApi.createSecrets(folder, items)
            : secretsApi.updateSecrets(folder, items, { upsert: mode === "upsert" });
        }),
      );
      const outcome: WriteOutcome = { written: [], failed: [] };
      results.forEach((result, i) => {
        const environment = (writes[i] as EnvironmentWrite).environment;
        if (result.status === "fulfilled") outcome.written.push(environment);
        else outcome.failed.push({ environment, error: result.reason });
      });
      return outcome;
    },
    onSettled: (_outcome, _error, writes) =>
      Promise.all(
        writes.map(({ environment }) =>
          queryClient.invalidateQueries({ queryKey: secretKeys.folder({ projectId, environment, secretPath }) }),
        ),
      ),
  });
}
