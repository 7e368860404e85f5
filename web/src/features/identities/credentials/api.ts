import { type BodyOf, endpoints } from "@keyhold/contract";
import { call } from "@/lib/api-client";

type CreateClientSecretBody = BodyOf<(typeof endpoints)["universalAuth.createClientSecret"]>;

/** Token-auth tokens and universal-auth client secrets of one identity; envelopes unwrapped here. */
export const credentialsApi = {
  listTokens: async (identityId: string, signal?: AbortSignal) =>
    (
      await call(
        endpoints["tokenAuth.listTokens"],
        { params: { identityId }, query: { offset: "0", limit: "100" } },
        { signal },
      )
    ).tokens,
  renameToken: async (tokenId: string, name: string) =>
    (await call(endpoints["tokenAuth.updateToken"], { params: { tokenId }, body: { name } })).token,
  revokeToken: (tokenId: string) => call(endpoints["tokenAuth.revokeToken"], { params: { tokenId } }),

  listClientSecrets: async (identityId: string, signal?: AbortSignal) =>
    (await call(endpoints["universalAuth.listClientSecrets"], { params: { identityId } }, { signal })).clientSecretData,
  createClientSecret: (identityId: string, body: CreateClientSecretBody) =>
    call(endpoints["universalAuth.createClientSecret"], { params: { identityId }, body }),
  revokeClientSecret: (identityId: string, clientSecretId: string) =>
    call(endpoints["universalAuth.revokeClientSecret"], { params: { identityId, clientSecretId } }),
};
