import { endpoints } from "@keyhold/contract";
import { queryOptions } from "@tanstack/react-query";
import { call } from "@/lib/api-client";
import { roleKeys } from "./queries";

/*
 * What a permission-change preview reads. Apart from the roles' own calls so that only the lazily
 * loaded preview carries them.
 */

const ep = {
  users: endpoints["projects.listMemberships"],
  identities: endpoints["identityMemberships.list"],
  project: endpoints["projects.get"],
  folders: endpoints["folders.list"],
  privileges: endpoints["identityPrivileges.list"],
  privilege: endpoints["identityPrivileges.get"],
};

/** A project has tens of identities, not thousands: they are read whole. */
const IDENTITY_PAGE = 20_000;

/**
 * What a permission-change preview evaluates a role's holders over, read from the ordinary
 * list endpoints (so a live Infisical server answers them too).
 */
export const previewApi = {
  /** Each environment's slug and the full paths of all its folders ("/" is counted by the grid). */
  scope: async (projectId: string, signal?: AbortSignal) => {
    const { workspace } = await call(ep.project, { params: { workspaceId: projectId } }, { signal });
    return Promise.all(
      workspace.environments.map(async ({ slug }) => {
        const query = { workspaceId: projectId, environment: slug, path: "/", recursive: "true" } as const;
        const { folders } = await call(ep.folders, { query }, { signal });
        return { slug, folders: folders.map(({ name, relativePath }) => relativePath ?? `/${name}`) };
      }),
    );
  },

  /** Users and identities of the project, each with its roles. */
  members: async (projectId: string, signal?: AbortSignal) => {
    const [users, identities] = await Promise.all([
      call(ep.users, { params: { workspaceId: projectId } }, { signal }),
      call(ep.identities, { params: { projectId }, query: { limit: String(IDENTITY_PAGE) } }, { signal }),
    ]);
    return {
      users: users.memberships.map(({ user, roles }) => ({
        id: user.id,
        name: user.username || user.email || user.id,
        roles,
      })),
      identities: identities.identityMemberships.map(({ identity, roles }) => ({
        id: identity.id,
        name: identity.name,
        roles,
      })),
    };
  },

  /** An identity's additional privileges in the project, each with its rules. */
  privileges: async (projectId: string, identityId: string, signal?: AbortSignal) => {
    const { privileges } = await call(ep.privileges, { query: { projectId, identityId } }, { signal });
    return Promise.all(
      privileges.map(async ({ id }) => (await call(ep.privilege, { params: { id } }, { signal })).privilege),
    );
  },
};

export const previewQueries = {
  /** The project's environments and folders, for a permission-change preview. */
  scope: (projectId: string) =>
    queryOptions({
      queryKey: [...roleKeys.preview(projectId), "scope"],
      queryFn: ({ signal }) => previewApi.scope(projectId, signal),
      staleTime: 30_000,
    }),
  /** Who holds which roles, read afresh for a preview. */
  members: (projectId: string) =>
    queryOptions({
      queryKey: [...roleKeys.preview(projectId), "members"],
      queryFn: ({ signal }) => previewApi.members(projectId, signal),
      staleTime: 0,
    }),
  privileges: (projectId: string, identityId: string) =>
    queryOptions({
      queryKey: [...roleKeys.preview(projectId), "privileges", identityId],
      queryFn: ({ signal }) => previewApi.privileges(projectId, identityId, signal),
      staleTime: 0,
    }),
};
