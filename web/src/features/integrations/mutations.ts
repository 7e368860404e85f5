import { useMutation, useQueryClient } from "@tanstack/react-query";
import { integrationsApi } from "./api";
import { integrationKeys } from "./queries";

/** Deletes an integration; the hook refreshes the list, the call site closes its dialog and says so. */
export function useDeleteIntegration(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (integrationId: string) => integrationsApi.delete(integrationId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.list(projectId) }),
  });
}
