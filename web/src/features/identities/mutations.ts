import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type CreateIdentityBody, identitiesApi, type UpdateIdentityBody } from "./api";
import { identityKeys } from "./queries";

/*
 * Each hook owns the cache work for its change and returns the invalidation promise,
 * so a pending dialog or form stays pending until fresh data is in place. Toasts,
 * closing dialogs and navigation belong to the call site.
 */

export function useCreateIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateIdentityBody) => identitiesApi.create(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: identityKeys.lists() }),
  });
}

export function useUpdateIdentity(identityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateIdentityBody) => identitiesApi.update(identityId, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: identityKeys.detail(identityId) }),
        queryClient.invalidateQueries({ queryKey: identityKeys.lists() }),
      ]),
  });
}

export function useDeleteIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (identityId: string) => identitiesApi.delete(identityId),
    onSuccess: (_deleted, identityId) => {
      queryClient.removeQueries({ queryKey: identityKeys.detail(identityId) });
      return queryClient.invalidateQueries({ queryKey: identityKeys.lists() });
    },
  });
}
