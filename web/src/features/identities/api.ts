import { type BodyOf, endpoints } from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  list: endpoints["identities.list"],
  get: endpoints["identities.get"],
  create: endpoints["identities.create"],
  update: endpoints["identities.update"],
  delete: endpoints["identities.delete"],
};

export type CreateIdentityBody = BodyOf<typeof ep.create>;
export type UpdateIdentityBody = BodyOf<typeof ep.update>;

/** Typed calls for identities; each unwraps its response envelope once, here. */
export const identitiesApi = {
  list: async (orgId: string, signal?: AbortSignal) =>
    (await call(ep.list, { query: { orgId } }, { signal })).identities,

  get: async (identityId: string, signal?: AbortSignal) =>
    (await call(ep.get, { params: { identityId } }, { signal })).identity,

  create: async (body: CreateIdentityBody) => (await call(ep.create, { body })).identity,

  update: async (identityId: string, body: UpdateIdentityBody) =>
    (await call(ep.update, { params: { identityId }, body })).identity,

  delete: async (identityId: string) => (await call(ep.delete, { params: { identityId } })).identity,
};
