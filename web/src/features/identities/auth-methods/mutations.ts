import { useMutation, useQueryClient } from "@tanstack/react-query";
import { credentialKeys } from "../credentials/queries";
import { identityKeys } from "../queries";
import { authMethodsApi } from "./api";
import type { AuthMethodConfig, AuthMethodDescriptor } from "./descriptor";
import { authMethodKeys } from "./queries";

type Body = Record<string, unknown>;
type Change = "attach" | "update" | "revoke";

/**
 * One hook for every change to every method. It puts the answer in the method's cache entry
 * and refreshes the identity (its list of attached methods), returning that promise so the
 * form stays pending until fresh data is in place.
 */
export function useAuthMethodChange(descriptor: AuthMethodDescriptor, identityId: string, change: Change) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body?: Body): Promise<AuthMethodConfig> =>
      change === "revoke"
        ? authMethodsApi.revoke(descriptor, identityId)
        : authMethodsApi[change](descriptor, identityId, body ?? {}),
    onSuccess: (config) => {
      queryClient.setQueryData(authMethodKeys.config(identityId, descriptor.name), change === "revoke" ? null : config);
      return queryClient.invalidateQueries({ queryKey: identityKeys.detail(identityId), exact: true });
    },
  });
}

/** Lifts universal auth's lockouts and refreshes the identity, which says which methods are locked. */
export function useClearLockouts(identityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => authMethodsApi.clearLockouts(identityId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: identityKeys.detail(identityId), exact: true }),
  });
}

/** Issues a token-auth access token and refreshes the identity's token list. */
export function useCreateAccessToken(identityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => authMethodsApi.createToken(identityId, name ? { name } : {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialKeys.tokens(identityId) }),
  });
}

/**
 * A dry-run login: nothing is invalidated, since nothing changes, and the mutation (which holds the
 * pasted credential) is dropped as soon as the form closes.
 */
export function useDryRunLogin(descriptor: AuthMethodDescriptor, identityId: string) {
  return useMutation({
    gcTime: 0,
    mutationFn: ({ settings, credential }: { settings: Body; credential: Record<string, string> }) => {
      if (!descriptor.tester) throw new Error(`${descriptor.label} has no credential to test`);
      return authMethodsApi.dryRunLogin(descriptor.tester.dryRun.endpoint, identityId, settings, credential);
    },
  });
}
