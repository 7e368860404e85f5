import { endpoints } from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  list: endpoints["projects.listIntegrations"],
  delete: endpoints["integrations.delete"],
};

/** Typed calls for a project's integrations; each unwraps its response envelope once, here. */
export const integrationsApi = {
  list: async (projectId: string, signal?: AbortSignal) =>
    (await call(ep.list, { params: { workspaceId: projectId } }, { signal })).integrations,

  delete: async (integrationId: string) => (await call(ep.delete, { params: { integrationId } })).integration,
};
