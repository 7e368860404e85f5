import { queryOptions } from "@tanstack/react-query";
import { identityKeys } from "../queries";
import { authMethodsApi } from "./api";
import type { AuthMethodName } from "./descriptor";
import { authMethodByName } from "./descriptors";

/** Under the identity's detail key: whatever refreshes the identity refreshes its methods too. */
export const authMethodKeys = {
  all: (identityId: string) => [...identityKeys.detail(identityId), "auth-methods"] as const,
  config: (identityId: string, method: AuthMethodName) => [...authMethodKeys.all(identityId), method] as const,
};

export const authMethodQueries = {
  /** Not the identity's: this browser's address, the same for every form (it changes only with the network). */
  clientAddress: () =>
    queryOptions({
      queryKey: ["client-address"] as const,
      queryFn: ({ signal }) => authMethodsApi.clientAddress(signal),
      staleTime: 60_000,
    }),
  config: (method: AuthMethodName, identityId: string) =>
    queryOptions({
      queryKey: authMethodKeys.config(identityId, method),
      queryFn: ({ signal }) => authMethodsApi.get(authMethodByName[method], identityId, signal),
    }),
};
