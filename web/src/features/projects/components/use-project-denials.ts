/**
 * Why the signed-in identity may not use each control of the project overview (undefined where
 * it may). Until the project ability hook lands, nothing is refused ahead of the server.
 */
export interface ProjectDenials {
  editSettings: string | undefined;
  deleteProject: string | undefined;
  createEnvironment: string | undefined;
  editEnvironment: string | undefined;
  deleteEnvironment: string | undefined;
}

export function useProjectDenials(_projectId: string): ProjectDenials {
  return {
    editSettings: undefined,
    deleteProject: undefined,
    createEnvironment: undefined,
    editEnvironment: undefined,
    deleteEnvironment: undefined,
  };
}
