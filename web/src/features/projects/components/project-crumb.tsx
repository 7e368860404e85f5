import { useQuery } from "@tanstack/react-query";
import { projectQueries } from "../queries";

/** The project's current name in the breadcrumbs; it follows renames because it reads the cache. */
export function ProjectCrumb({ projectId }: { projectId: string }) {
  // A failed load is already on screen in the page; the crumb must not fetch it again.
  const { data } = useQuery({ ...projectQueries.detail(projectId), retryOnMount: false });
  return <>{data?.name ?? "Project"}</>;
}
