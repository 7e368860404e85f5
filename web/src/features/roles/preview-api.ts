import { endpoints } from "@keyhold/contract";
import { queryOptions } from "@tanstack/react-query";
import { readPrivileges } from "@/components/permissions/privileges-read";
import { accessApi } from "@/features/access/api";
import { call } from "@/lib/api-client";
import { roleKeys } from "./queries";

/*
 * What a permission-change preview reads. Apart from the roles' own calls so that only the lazily
 * loaded preview carries them.
 */

const ep = {
  users: endpoints["projects.listMemberships"],
  identities: endpoints["identityMemberships.list"],
};

/** A project has tens of identities, not thousands: they are read whole. */
const IDENTITY_PAGE = 20_000;

/**
 * Who holds a role, with their privileges, for a permission-change preview (the project's scope
 * and the roles' rules come from the shared preview data).
 */
export const previewApi = {
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

  /** An identity's additional privileges in the project, each with its rules (none where the server has no list). */
  privileges: (projectId: string, identityId: string, signal?: AbortSignal) =>
    readPrivileges(
      () => accessApi.privileges(projectId, identityId, signal),
      (id) => accessApi.privilege(id, signal),
    ),
};

export const previewQueries = {
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
