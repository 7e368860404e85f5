import { useProjectAbility } from "@/hooks/use-project-ability";
import type { AccessGuards } from "./access-guards";

/** What the signed-in identity may do on the access page, from its own rules in the project. */
export function useAccessGuards(projectId: string): AccessGuards {
  const ability = useProjectAbility(projectId);
  const deny = (action: string, subject: string) =>
    ability.can(action, subject) ? undefined : (ability.reason(action, subject) ?? `You may not ${action} ${subject}.`);
  return {
    inviteUsers: deny("create", "member"),
    addIdentity: deny("create", "identity"),
    editIdentity: deny("edit", "identity"),
    removeIdentity: deny("delete", "identity"),
    // Infisical asks for identity edit and the grant boundary; the server checks the boundary.
    editPrivileges: deny("edit", "identity"),
  };
}
