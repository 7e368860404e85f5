import { type BodyOf, endpoints } from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  memberships: endpoints["identities.listOrgMemberships"],
  get: endpoints["identities.get"],
  create: endpoints["identities.create"],
  attachOidc: endpoints["oidcAuth.attach"],
  updateOidc: endpoints["oidcAuth.update"],
};

export type AttachOidcBody = BodyOf<typeof ep.attachOidc>;
export type UpdateOidcBody = BodyOf<typeof ep.updateOidc>;
export type CreateIdentityBody = BodyOf<typeof ep.create>;

/** The most identities the picker lists; past it, the set-up page asks for the identity's ID. */
export const PICKER_LIMIT = 100;

/** The service calls the set-up page makes (identities and their OIDC auth); envelopes unwrapped here. */
export const ssoSetupApi = {
  /** The organisation's identities by name (the first page), for picking one. */
  identities: async (orgId: string, signal?: AbortSignal) => {
    const page = await call(ep.memberships, { params: { orgId }, query: { limit: PICKER_LIMIT } }, { signal });
    return {
      identities: page.identityMemberships.map((m) => ({ ...m.identity, role: m.role })),
      total: page.totalCount,
    };
  },

  identity: async (identityId: string, signal?: AbortSignal) =>
    (await call(ep.get, { params: { identityId } }, { signal })).identity,

  createIdentity: async (body: CreateIdentityBody) => (await call(ep.create, { body })).identity,

  attachOidcAuth: async (identityId: string, body: AttachOidcBody) =>
    (await call(ep.attachOidc, { params: { identityId }, body })).identityOidcAuth,

  updateOidcAuth: async (identityId: string, body: UpdateOidcBody) =>
    (await call(ep.updateOidc, { params: { identityId }, body })).identityOidcAuth,
};
