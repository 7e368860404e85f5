import type { Environment } from "@keyhold/contract";
import { useParams, useSearchParams } from "react-router";
import type { ImportingFolder } from "../api";
import { normalisePath } from "../import-form";

/**
 * The folder whose imports are shown, kept in the URL (`?environment=dev&path=/db`) so every view
 * can be linked to. Without a (known) environment the project's first one is shown.
 */
export function useImportLocation(projectId: string, environments: readonly Pick<Environment, "slug">[]) {
  const [params, setParams] = useSearchParams();
  const asked = params.get("environment");
  const environment = environments.some((env) => env.slug === asked) ? asked : environments[0]?.slug;
  const path = normalisePath(params.get("path") ?? "/") ?? "/";

  const folder: ImportingFolder | undefined = environment ? { projectId, environment, path } : undefined;
  const go = (next: { environment: string; path: string }) =>
    setParams(
      (current) => {
        const search = new URLSearchParams(current);
        search.set("environment", next.environment);
        if (next.path === "/") search.delete("path");
        else search.set("path", next.path);
        return search;
      },
      { replace: false },
    );
  return { folder, go };
}

/** The project of the current route; its routes always have the parameter. */
export function useProjectId(): string {
  const { projectId } = useParams();
  if (!projectId) throw new Error("useProjectId was used outside a project route");
  return projectId;
}
