import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { projectAbilityQuery, useProjectAbility } from "@/hooks/use-project-ability";

/** Why the signed-in identity may not use each control of the secrets page (undefined: it may). */
export interface SecretGuards {
  create: string | undefined;
  edit: string | undefined;
  delete: string | undefined;
  /** Reading values (reveal, copy, and seeing the value being edited). */
  readValue: string | undefined;
  createFolder: string | undefined;
  deleteFolder: string | undefined;
  /** The caller's rules are still loading: nothing is allowed yet, and nothing is known to be hidden. */
  checking: boolean;
}

/**
 * From the caller's own rules in the project, by subject type: a conditional rule counts as
 * possible, and the server has the last word on each secret (a value it withholds says so).
 */
export function useSecretGuards(projectId: string): SecretGuards {
  const ability = useProjectAbility(projectId);
  const checking = useQuery(projectAbilityQuery(projectId)).isPending;
  const deny = (action: string, subject: string) =>
    ability.can(action, subject) ? undefined : (ability.reason(action, subject) ?? `You may not ${action} ${subject}.`);
  // Infisical's legacy `read` also reads values.
  const readValue = ability.can("read", "secrets") ? undefined : deny("readValue", "secrets");
  const create = deny("create", "secrets");
  const edit = deny("edit", "secrets");
  const remove = deny("delete", "secrets");
  const createFolder = deny("create", "secret-folders");
  const deleteFolder = deny("delete", "secret-folders");
  // One object while the answers stay the same, so memoised rows skip renders.
  return useMemo(
    () => ({ create, edit, delete: remove, readValue, createFolder, deleteFolder, checking }),
    [create, edit, remove, readValue, createFolder, deleteFolder, checking],
  );
}
