import type { OidcSetup } from "@keyhold/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ssoSetupApi } from "./api";
import { type IdentityStepValues, toOidcAuthBody } from "./identity-form";
import { ssoSetupKeys } from "./queries";

/** The identity was created, but attaching OIDC auth to it failed: it now exists to be picked. */
export class AttachAfterCreateError extends Error {
  constructor(
    readonly identity: { id: string; name: string },
    override readonly cause: unknown,
  ) {
    super(`The identity ${identity.name} was created, but its OIDC auth was not attached`);
  }
}

export interface ConnectedIdentity {
  id: string;
  name: string;
  /** Whether the identity had OIDC auth already (and it was updated rather than attached). */
  updated: boolean;
}

/**
 * Creates the identity (or takes the one picked) and attaches OIDC auth for this provider to it,
 * or updates the OIDC auth it has. Refreshes the set-up page's identity reads.
 */
export function useConnectIdentity(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ setup, step }: { setup: OidcSetup; step: IdentityStepValues }): Promise<ConnectedIdentity> => {
      const body = toOidcAuthBody(setup, step);
      if (step.source === "create") {
        const identity = await ssoSetupApi.createIdentity({ name: step.name, organizationId: orgId, role: step.role });
        try {
          await ssoSetupApi.attachOidcAuth(identity.id, body);
        } catch (error) {
          throw new AttachAfterCreateError(identity, error);
        }
        return { id: identity.id, name: identity.name, updated: false };
      }
      const identity = await ssoSetupApi.identity(step.identityId);
      if (identity.identity.authMethods.includes("oidc-auth")) {
        await ssoSetupApi.updateOidcAuth(step.identityId, body);
        return { id: step.identityId, name: identity.identity.name, updated: true };
      }
      await ssoSetupApi.attachOidcAuth(step.identityId, body);
      return { id: step.identityId, name: identity.identity.name, updated: false };
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ssoSetupKeys.identities(orgId) }),
        // Other pages' identity reads (the list, its auth methods) learn of the change too.
        queryClient.invalidateQueries({ queryKey: ["identities"] }),
      ]),
  });
}
