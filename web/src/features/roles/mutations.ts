import type { ProjectRole } from "@keyhold/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { projectAbilityQuery } from "@/hooks/use-project-ability";
import { type CreateRoleBody, rolesApi, type UpdateRoleBody } from "./api";
import { roleKeys } from "./queries";

/*
 * Each hook owns the cache work for its change and returns the invalidation promise, so a
 * pending dialog or form stays pending until fresh data is in place. Toasts, closing dialogs
 * and navigation belong to the call site.
 */

export function useCreateRole(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateRoleBody) => rolesApi.create(projectId, body),
    onSuccess: (role) => {
      queryClient.setQueryData(roleKeys.detail(projectId, role.slug), role);
      return queryClient.invalidateQueries({ queryKey: roleKeys.list(projectId) });
    },
  });
}

export function useUpdateRole(projectId: string, role: Pick<ProjectRole, "id" | "slug">) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateRoleBody) => rolesApi.update(projectId, role.id, body),
    onSuccess: (updated) => {
      // A new slug is a new address; the old one must not show stale data.
      if (updated.slug !== role.slug) queryClient.removeQueries({ queryKey: roleKeys.detail(projectId, role.slug) });
      queryClient.setQueryData(roleKeys.detail(projectId, updated.slug), updated);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: roleKeys.list(projectId) }),
        // The signed-in identity may hold this role: its own permissions may have changed.
        queryClient.invalidateQueries({ queryKey: projectAbilityQuery(projectId).queryKey }),
      ]);
    },
  });
}

export function useDeleteRole(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (role: Pick<ProjectRole, "id" | "slug">) => rolesApi.delete(projectId, role.id),
    onSuccess: (_deleted, role) =>
      Promise.all([
        // Marked stale, not removed: the role's own page may still be on screen until the call site navigates away.
        queryClient.invalidateQueries({ queryKey: roleKeys.detail(projectId, role.slug), refetchType: "none" }),
        queryClient.invalidateQueries({ queryKey: roleKeys.list(projectId) }),
      ]),
  });
}
