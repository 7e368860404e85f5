import { useParams } from "react-router";

/** The project of the current route; its routes always have the parameter. */
export function useProjectId(): string {
  const { projectId } = useParams();
  if (!projectId) throw new Error("useProjectId was used outside a project route");
  return projectId;
}

/** The role of the current route (its slug). */
export function useRoleSlug(): string {
  const { roleSlug } = useParams();
  if (!roleSlug) throw new Error("useRoleSlug was used outside a role route");
  return roleSlug;
}
