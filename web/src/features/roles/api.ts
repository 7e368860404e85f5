import { type BodyOf, endpoints, type MembershipRole } from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  list: endpoints["projectRoles.list"],
  get: endpoints["projectRoles.getBySlug"],
  create: endpoints["projectRoles.create"],
  update: endpoints["projectRoles.update"],
  delete: endpoints["projectRoles.delete"],
  users: endpoints["projects.listMemberships"],
  identities: endpoints["identityMemberships.list"],
};

/** A project has tens of identities, not thousands: they are read whole. */
const IDENTITY_PAGE = 20_000;

export type CreateRoleBody = BodyOf<typeof ep.create>;
export type UpdateRoleBody = BodyOf<typeof ep.update>;

/** Typed calls for a project's roles; each unwraps its response envelope once, here. */
export const rolesApi = {
  list: async (projectId: string, signal?: AbortSignal) =>
    (await call(ep.list, { params: { projectId } }, { signal })).roles,

  get: async (projectId: string, roleSlug: string, signal?: AbortSignal) =>
    (await call(ep.get, { params: { projectId, roleSlug } }, { signal })).role,

  create: async (projectId: string, body: CreateRoleBody) =>
    (await call(ep.create, { params: { projectId }, body })).role,

  update: async (projectId: string, roleId: string, body: UpdateRoleBody) =>
    (await call(ep.update, { params: { projectId, roleId }, body })).role,

  delete: async (projectId: string, roleId: string) => (await call(ep.delete, { params: { projectId, roleId } })).role,

  /** The roles each member of the project holds, users and identities apart: who holds a role. */
  holders: async (projectId: string, signal?: AbortSignal) => {
    const [users, identities] = await Promise.all([
      call(ep.users, { params: { workspaceId: projectId } }, { signal }),
      call(ep.identities, { params: { projectId }, query: { limit: String(IDENTITY_PAGE) } }, { signal }),
    ]);
    const rolesOf = (memberships: readonly { roles: readonly RoleHeld[] }[]) => memberships.map((m) => m.roles);
    return { users: rolesOf(users.memberships), identities: rolesOf(identities.identityMemberships) };
  },
};

type RoleHeld = Pick<MembershipRole, "customRoleId" | "customRoleSlug">;

/** How many users and identities hold `role` (permanently or for a while). */
export function roleHolders(
  holders: { users: readonly (readonly RoleHeld[])[]; identities: readonly (readonly RoleHeld[])[] },
  role: { id: string; slug: string },
) {
  const holds = (roles: readonly RoleHeld[]) =>
    roles.some((held) => held.customRoleId === role.id || held.customRoleSlug === role.slug);
  return {
    users: holders.users.filter(holds).length,
    identities: holders.identities.filter(holds).length,
  };
}
