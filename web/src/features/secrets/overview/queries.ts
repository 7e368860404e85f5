import { queryOptions } from "@tanstack/react-query";
import { type SecretFolder, secretsApi } from "../api";
import { secretKeys } from "../queries";
import type { OverviewSecret } from "./overview-rows";

export const overviewKeys = {
  /** Under the folder's key, so whatever makes the folder stale makes this stale too. */
  secrets: (folder: SecretFolder) => [...secretKeys.folder(folder), "overview"] as const,
};

export const overviewQueries = {
  /** One environment's folder: its own secrets with the digests of their values, never the values. */
  secrets: (folder: SecretFolder) =>
    queryOptions({
      queryKey: overviewKeys.secrets(folder),
      queryFn: async ({ signal }): Promise<OverviewSecret[]> =>
        (await secretsApi.listWithDigests(folder, signal)).map((secret) => ({
          secretKey: secret.secretKey,
          version: secret.version,
          secretComment: secret.secretComment,
          digest: secret.secretValueDigest,
        })),
    }),
};
