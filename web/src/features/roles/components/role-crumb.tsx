import { useQuery } from "@tanstack/react-query";
import { roleQueries } from "../queries";

/** The role's current name in the breadcrumbs; it reads the cache, so it follows renames. */
export function RoleCrumb({ projectId, roleSlug }: { projectId: string; roleSlug: string }) {
  // A failed load is already on screen in the page; the crumb must not fetch it again.
  const { data } = useQuery({ ...roleQueries.detail(projectId, roleSlug), retryOnMount: false });
  return <>{data?.name ?? roleSlug}</>;
}
