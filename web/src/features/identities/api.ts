import { type BodyOf, endpoints } from "@keyhold/contract";
import { call } from "@/lib/api-client";
import { sameName } from "@/lib/identity-names";

const ep = {
  search: endpoints["identities.search"],
  orgMemberships: endpoints["identities.listOrgMemberships"],
  get: endpoints["identities.get"],
  projectMemberships: endpoints["identities.listProjectMemberships"],
  create: endpoints["identities.create"],
  update: endpoints["identities.update"],
  delete: endpoints["identities.delete"],
};

export type SearchIdentitiesBody = BodyOf<typeof ep.search>;
export type CreateIdentityBody = BodyOf<typeof ep.create>;
export type UpdateIdentityBody = BodyOf<typeof ep.update>;

/** Typed calls for identities; each unwraps its response envelope once, here. */
export const identitiesApi = {
  /** One page of the organisation's identities, with how many match in all. */
  search: (body: SearchIdentitiesBody, signal?: AbortSignal) => call(ep.search, { body }, { signal }),

  /**
   * The organisation's identities called `name`. Read through the organisation's listing, which
   * every server searches by any text (the search route takes fewer characters than a name may hold).
   */
  named: async (orgId: string, name: string, signal?: AbortSignal) =>
    (
      await call(ep.orgMemberships, { params: { orgId }, query: { search: name, limit: 100 } }, { signal })
    ).identityMemberships
      .map((membership) => membership.identity)
      .filter((identity) => sameName(identity.name, name)),

  get: async (identityId: string, signal?: AbortSignal) =>
    (await call(ep.get, { params: { identityId } }, { signal })).identity,

  /** The projects the identity belongs to, with its roles in each. */
  projectMemberships: async (identityId: string, signal?: AbortSignal) =>
    (await call(ep.projectMemberships, { params: { identityId } }, { signal })).identityMemberships,

  create: async (body: CreateIdentityBody) => (await call(ep.create, { body })).identity,

  update: async (identityId: string, body: UpdateIdentityBody) =>
    (await call(ep.update, { params: { identityId }, body })).identity,

  delete: async (identityId: string) => (await call(ep.delete, { params: { identityId } })).identity,
};
