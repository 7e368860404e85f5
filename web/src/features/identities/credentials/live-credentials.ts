import { useQuery } from "@tanstack/react-query";
import { allCounting, type Counting } from "@/components/ui/confirm-removal";
import { credentialQueries } from "./queries";
import { clientSecretState, tokenState } from "@/lib/credential-status";

/** Which of an identity's listed credentials to count: token-auth tokens, universal-auth client secrets. */
export interface CredentialKinds {
  tokens: boolean;
  clientSecrets: boolean;
}

/**
 * The identity's credentials that still work, counted for a confirmation (revoking the method that
 * issued them, or deleting the identity, ends them). Read afresh while `enabled`. Access tokens that
 * other methods issued are not listed by any server, so they are not counted.
 */
export function useLiveCredentials(identityId: string, kinds: CredentialKinds, enabled: boolean): Counting {
  const tokens = useQuery({
    ...credentialQueries.tokens(identityId),
    staleTime: 0,
    enabled: enabled && kinds.tokens,
    select: (list) => [
      {
        count: list.filter((token) => tokenState(token).status === "active").length,
        one: "live access token",
        many: "live access tokens",
      },
    ],
  });
  const clientSecrets = useQuery({
    ...credentialQueries.clientSecrets(identityId),
    staleTime: 0,
    enabled: enabled && kinds.clientSecrets,
    select: (list) => [
      {
        count: list.filter((secret) => clientSecretState(secret).status === "active").length,
        one: "live client secret",
        many: "live client secrets",
      },
    ],
  });
  return allCounting([...(kinds.tokens ? [tokens] : []), ...(kinds.clientSecrets ? [clientSecrets] : [])]);
}
