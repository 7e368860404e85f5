import { useMutation, useQueryClient } from "@tanstack/react-query";
import { radarApi } from "./api";
import { type Ending, type EndingAction, roleSlug } from "./endings";
import { type Extension, extendedRange } from "./extend";
import { radarKeys } from "./queries";

type Action<T extends EndingAction["type"]> = Extract<EndingAction, { type: T }>;

/** Every radar mutation reads the list again afterwards, so the changed row shows what is stored. */
function useRadarMutation<V, R>(mutationFn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: radarKeys.all }),
  });
}

export function useRevokeToken() {
  return useRadarMutation((action: Action<"revoke-token">) => radarApi.revokeToken(action.tokenId));
}

export function useRevokeClientSecret() {
  return useRadarMutation((action: Action<"revoke-client-secret">) =>
    radarApi.revokeClientSecret(action.identityId, action.clientSecretId),
  );
}

export interface ExtendVars {
  ending: Ending;
  by: Extension;
  now: number;
}

/** Extends a temporary privilege or identity role: same start, a range that reaches the new end. */
export function useExtendGrant() {
  return useRadarMutation(async ({ ending, by, now }: ExtendVars) => {
    const { action } = ending;
    if (action.type === "extend-privilege") {
      const { temporaryRange, temporaryAccessStartTime } = extendedRange({ ...action, endsAt: ending.endsAt }, by, now);
      return radarApi.updatePrivilege(action.privilegeId, {
        slug: action.slug,
        type: { isTemporary: true, temporaryMode: "relative", temporaryRange, temporaryAccessStartTime },
      });
    }
    if (action.type === "extend-identity-role") {
      // The update replaces every role: the others are sent back as they are stored.
      const roles = action.roles.map((role) => {
        if (role.id === action.roleId) {
          const { temporaryRange, temporaryAccessStartTime } = extendedRange(
            { start: action.start, endsAt: ending.endsAt },
            by,
            now,
          );
          return {
            role: roleSlug(role),
            isTemporary: true,
            temporaryMode: "relative" as const,
            temporaryRange,
            temporaryAccessStartTime,
          };
        }
        if (!role.isTemporary) return { role: roleSlug(role), isTemporary: false };
        return {
          role: roleSlug(role),
          isTemporary: true,
          temporaryMode: "relative" as const,
          temporaryRange: role.temporaryRange ?? undefined,
          temporaryAccessStartTime: role.temporaryAccessStartTime ?? undefined,
        };
      });
      return radarApi.updateIdentityRoles(action.projectId, action.identityId, { roles });
    }
    throw new Error(`${ending.name} cannot be extended here`);
  });
}
