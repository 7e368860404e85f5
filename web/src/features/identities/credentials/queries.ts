import { queryOptions } from "@tanstack/react-query";
import { identityKeys } from "../queries";
import { credentialsApi } from "./api";

/** Under the identity's detail key: whatever refreshes the identity refreshes its credentials too. */
export const credentialKeys = {
  all: (identityId: string) => [...identityKeys.detail(identityId), "credentials"] as const,
  tokens: (identityId: string) => [...credentialKeys.all(identityId), "tokens"] as const,
  clientSecrets: (identityId: string) => [...credentialKeys.all(identityId), "client-secrets"] as const,
};

export const credentialQueries = {
  tokens: (identityId: string) =>
    queryOptions({
      queryKey: credentialKeys.tokens(identityId),
      queryFn: ({ signal }) => credentialsApi.listTokens(identityId, signal),
    }),
  clientSecrets: (identityId: string) =>
    queryOptions({
      queryKey: credentialKeys.clientSecrets(identityId),
      queryFn: ({ signal }) => credentialsApi.listClientSecrets(identityId, signal),
    }),
};
