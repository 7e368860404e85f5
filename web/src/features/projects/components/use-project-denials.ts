import { useProjectAbility } from "@/hooks/use-project-ability";

/** Why the signed-in identity may not use each control of the project overview (undefined where it may). */
export interface ProjectDenials {
  editSettings: string | undefined;
  deleteProject: string | undefined;
  createEnvironment: string | undefined;
  editEnvironment: string | undefined;
  deleteEnvironment: string | undefined;
}

/** The overview's controls and the project permission each needs (the server checks the same ones). */
export function useProjectDenials(projectId: string): ProjectDenials {
  const ability = useProjectAbility(projectId);
  return {
    editSettings: ability.reason("edit", "settings"),
    deleteProject: ability.reason("delete", "workspace"),
    createEnvironment: ability.reason("create", "environments"),
    editEnvironment: ability.reason("edit", "environments"),
    deleteEnvironment: ability.reason("delete", "environments"),
  };
}
