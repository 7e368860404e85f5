import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  accessApi,
  type CreatePrivilegeBody,
  type IdentityRolesBody,
  type InviteUsersBody,
  type UpdatePrivilegeBody,
} from "./api";
import { accessKeys } from "./queries";

/*
 * Each hook owns the cache work for its change and returns the invalidation promise, so a
 * pending dialog stays pending until fresh data is in place. Toasts and closing dialogs
 * belong to the call site.
 */

export function useInviteUsers(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteUsersBody) => accessApi.invite(projectId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.users(projectId) }),
  });
}

export function useAddIdentity(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ identityId, body }: { identityId: string; body: IdentityRolesBody }) =>
      accessApi.addIdentity(projectId, identityId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.identities(projectId) }),
  });
}

export function useUpdateIdentityRoles(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ identityId, body }: { identityId: string; body: IdentityRolesBody }) =>
      accessApi.updateIdentityRoles(projectId, identityId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.identities(projectId) }),
  });
}

/** Removing an identity also removes its additional privileges in the project. */
export function useRemoveIdentity(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (identityId: string) => accessApi.removeIdentity(projectId, identityId),
    onSuccess: (_removed, identityId) => {
      queryClient.removeQueries({ queryKey: accessKeys.privilegeList(projectId, identityId) });
      return queryClient.invalidateQueries({ queryKey: accessKeys.identities(projectId) });
    },
  });
}

export function useCreatePrivilege(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePrivilegeBody) => accessApi.createPrivilege(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.privileges(projectId) }),
  });
}

export function useUpdatePrivilege(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdatePrivilegeBody }) => accessApi.updatePrivilege(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.privileges(projectId) }),
  });
}

export function useDeletePrivilege(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => accessApi.deletePrivilege(id),
    onSuccess: (_deleted, id) => {
      queryClient.removeQueries({ queryKey: accessKeys.privilege(projectId, id) });
      return queryClient.invalidateQueries({ queryKey: accessKeys.privileges(projectId) });
    },
  });
}
