import { endpoints, type QueryOf } from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  listOrg: endpoints["auditLogs.listOrg"],
  identities: endpoints["identities.search"],
  identity: endpoints["identities.get"],
  projects: endpoints["projects.list"],
  project: endpoints["projects.get"],
};

export type AuditListQueryInput = QueryOf<typeof ep.listOrg>;

/** Typed calls of the audit log page; each unwraps its response envelope once, here. */
export const auditApi = {
  /** One page of the organisation's events (one project's with `projectId`), newest first. */
  list: async (query: AuditListQueryInput, signal?: AbortSignal) =>
    (await call(ep.listOrg, { query }, { signal })).auditLogs,

  /** Identities whose name contains `text`, for the actor picker. */
  searchIdentities: async (text: string, signal?: AbortSignal) =>
    (
      await call(
        ep.identities,
        {
          body: {
            limit: 20,
            offset: 0,
            orderBy: "name",
            orderDirection: "asc",
            ...(text && { search: { name: { $contains: text } } }),
          },
        },
        { signal },
      )
    ).identities.map((membership) => membership.identity),

  identity: async (identityId: string, signal?: AbortSignal) =>
    (await call(ep.identity, { params: { identityId } }, { signal })).identity,

  projects: async (signal?: AbortSignal) => (await call(ep.projects, {}, { signal })).workspaces,

  project: async (projectId: string, signal?: AbortSignal) =>
    (await call(ep.project, { params: { workspaceId: projectId } }, { signal })).workspace,
};
