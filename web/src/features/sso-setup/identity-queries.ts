import { queryOptions } from "@tanstack/react-query";
import { ssoSetupApi } from "./api";
import { ssoSetupKeys } from "./queries";

/** The service reads of the identity step: the set-up page's only (the test window needs none). */
export const ssoIdentityQueries = {
  identities: (orgId: string) =>
    queryOptions({
      queryKey: ssoSetupKeys.identities(orgId),
      queryFn: ({ signal }) => ssoSetupApi.identities(orgId, signal),
    }),
};
