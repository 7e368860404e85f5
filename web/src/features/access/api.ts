import { type BodyOf, endpoints } from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  users: endpoints["projects.listMemberships"],
  invite: endpoints["projectUsers.invite"],
  identities: endpoints["identityMemberships.list"],
  addIdentity: endpoints["identityMemberships.add"],
  updateIdentity: endpoints["identityMemberships.update"],
  removeIdentity: endpoints["identityMemberships.remove"],
  orgIdentities: endpoints["identities.listOrgMemberships"],
  roles: endpoints["projectRoles.list"],
  privileges: endpoints["identityPrivileges.list"],
  privilege: endpoints["identityPrivileges.get"],
  createPrivilege: endpoints["identityPrivileges.create"],
  updatePrivilege: endpoints["identityPrivileges.update"],
  deletePrivilege: endpoints["identityPrivileges.delete"],
};

export type InviteUsersBody = BodyOf<typeof ep.invite>;
export type IdentityRolesBody = BodyOf<typeof ep.updateIdentity>;
export type CreatePrivilegeBody = BodyOf<typeof ep.createPrivilege>;
export type UpdatePrivilegeBody = BodyOf<typeof ep.updatePrivilege>;

/** A project's identities are listed whole: a project has tens of them, not thousands. */
const IDENTITY_PAGE = 20_000;
/** The add-identity picker shows the first matches of what was typed. */
const PICKER_PAGE = 20;

/** Typed calls for a project's access; each unwraps its response envelope once, here. */
export const accessApi = {
  users: async (projectId: string, signal?: AbortSignal) =>
    (await call(ep.users, { params: { workspaceId: projectId } }, { signal })).memberships,

  invite: async (projectId: string, body: InviteUsersBody) =>
    (await call(ep.invite, { params: { projectId }, body })).memberships,

  identities: async (projectId: string, signal?: AbortSignal) =>
    (await call(ep.identities, { params: { projectId }, query: { limit: String(IDENTITY_PAGE) } }, { signal }))
      .identityMemberships,

  addIdentity: async (projectId: string, identityId: string, body: IdentityRolesBody) =>
    (await call(ep.addIdentity, { params: { projectId, identityId }, body })).identityMembership,

  updateIdentityRoles: async (projectId: string, identityId: string, body: IdentityRolesBody) =>
    (await call(ep.updateIdentity, { params: { projectId, identityId }, body })).roles,

  removeIdentity: async (projectId: string, identityId: string) =>
    (await call(ep.removeIdentity, { params: { projectId, identityId } })).identityMembership,

  /** The organisation's identities whose name contains `search`, for the add-identity picker. */
  orgIdentities: async (orgId: string, search: string, signal?: AbortSignal) =>
    (
      await call(
        ep.orgIdentities,
        { params: { orgId }, query: { limit: PICKER_PAGE, ...(search ? { search } : {}) } },
        { signal },
      )
    ).identityMemberships,

  roles: async (projectId: string, signal?: AbortSignal) =>
    (await call(ep.roles, { params: { projectId } }, { signal })).roles,

  privileges: async (projectId: string, identityId: string, signal?: AbortSignal) =>
    (await call(ep.privileges, { query: { projectId, identityId } }, { signal })).privileges,

  privilege: async (id: string, signal?: AbortSignal) =>
    (await call(ep.privilege, { params: { id } }, { signal })).privilege,

  createPrivilege: async (body: CreatePrivilegeBody) => (await call(ep.createPrivilege, { body })).privilege,

  updatePrivilege: async (id: string, body: UpdatePrivilegeBody) =>
    (await call(ep.updatePrivilege, { params: { id }, body })).privilege,

  deletePrivilege: async (id: string) => (await call(ep.deletePrivilege, { params: { id } })).privilege,
};
