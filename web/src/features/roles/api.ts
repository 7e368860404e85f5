import { type BodyOf, endpoints } from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  list: endpoints["projectRoles.list"],
  get: endpoints["projectRoles.getBySlug"],
  create: endpoints["projectRoles.create"],
  update: endpoints["projectRoles.update"],
  delete: endpoints["projectRoles.delete"],
};

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
};
