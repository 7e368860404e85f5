import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type CreateEnvironmentBody,
  type CreateProjectBody,
  environmentsApi,
  projectsApi,
  type UpdateEnvironmentBody,
  type UpdateProjectBody,
} from "./api";
import { projectKeys } from "./queries";

/*
 * Each hook owns the cache work for its change and returns the invalidation promise, so a
 * pending dialog or form stays pending until fresh data is in place. Toasts, closing dialogs and
 * navigation belong to the call site. A project's environments travel with the project, so every
 * environment change refreshes the project and the list (which shows environment slugs).
 */

function useInvalidateProject() {
  const queryClient = useQueryClient();
  return (projectId: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectId) }),
      queryClient.invalidateQueries({ queryKey: projectKeys.lists() }),
    ]);
}

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateProjectBody) => projectsApi.create(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.lists() }),
  });
}

export function useUpdateProject(projectId: string) {
  const invalidate = useInvalidateProject();
  return useMutation({
    mutationFn: (body: UpdateProjectBody) => projectsApi.update(projectId, body),
    onSuccess: () => invalidate(projectId),
  });
}

export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectId: string) => projectsApi.delete(projectId),
    onSuccess: (_deleted, projectId) => {
      queryClient.removeQueries({ queryKey: projectKeys.detail(projectId) });
      return queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
    },
  });
}

export function useCreateEnvironment(projectId: string) {
  const invalidate = useInvalidateProject();
  return useMutation({
    mutationFn: (body: CreateEnvironmentBody) => environmentsApi.create(projectId, body),
    onSuccess: () => invalidate(projectId),
  });
}

export function useUpdateEnvironment(projectId: string) {
  const invalidate = useInvalidateProject();
  return useMutation({
    mutationFn: ({ environmentId, body }: { environmentId: string; body: UpdateEnvironmentBody }) =>
      environmentsApi.update(projectId, environmentId, body),
    onSuccess: () => invalidate(projectId),
  });
}

export function useDeleteEnvironment(projectId: string) {
  const invalidate = useInvalidateProject();
  return useMutation({
    mutationFn: (environmentId: string) => environmentsApi.delete(projectId, environmentId),
    onSuccess: () => invalidate(projectId),
  });
}

export function useUpdateAuditRetention(projectId: string) {
  const invalidate = useInvalidateProject();
  return useMutation({
    mutationFn: (days: number) => projectsApi.updateAuditRetention(projectId, days),
    onSuccess: () => invalidate(projectId),
  });
}
