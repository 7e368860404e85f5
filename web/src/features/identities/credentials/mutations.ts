import type { BodyOf, endpoints } from "@keyhold/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { credentialsApi } from "./api";
import { credentialKeys } from "./queries";

type CreateClientSecretBody = BodyOf<(typeof endpoints)["universalAuth.createClientSecret"]>;

/** Every credential change refreshes the identity's credential lists, and the form waits for that. */
function useCredentialMutation<TVariables, TData>(
  identityId: string,
  mutationFn: (variables: TVariables) => Promise<TData>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialKeys.all(identityId) }),
  });
}

export function useRenameToken(identityId: string) {
  return useCredentialMutation(identityId, ({ tokenId, name }: { tokenId: string; name: string }) =>
    credentialsApi.renameToken(tokenId, name),
  );
}

export function useRevokeToken(identityId: string) {
  return useCredentialMutation(identityId, (tokenId: string) => credentialsApi.revokeToken(tokenId));
}

export function useCreateClientSecret(identityId: string) {
  return useCredentialMutation(identityId, (body: CreateClientSecretBody) =>
    credentialsApi.createClientSecret(identityId, body),
  );
}

export function useRevokeClientSecret(identityId: string) {
  return useCredentialMutation(identityId, (clientSecretId: string) =>
    credentialsApi.revokeClientSecret(identityId, clientSecretId),
  );
}
