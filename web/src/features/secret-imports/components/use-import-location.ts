import type { Environment } from "@keyhold/contract";
import { useParams, useSearchParams } from "react-router";
import { readPlace, writePlace } from "@/config/place";
import type { ImportingFolder } from "../api";
import { normalisePath } from "../import-form";

/**
 * The folder whose imports are shown, kept in the URL (`?env=dev&path=/db`, as on the secrets
 * page) so every view can be linked to. Without a (known) environment the project's first one is shown.
 */
export function useImportLocation(projectId: string, environments: readonly Pick<Environment, "slug">[]) {
  const [params, setParams] = useSearchParams();
  const place = readPlace(params);
  const asked = place.environment;
  const environment = environments.some((env) => env.slug === asked) ? asked : environments[0]?.slug;
  const path = normalisePath(place.secretPath ?? "/") ?? "/";

  const folder: ImportingFolder | undefined = environment ? { projectId, environment, path } : undefined;
  const go = (next: { environment: string; path: string }) =>
    setParams((current) => writePlace(current, { environment: next.environment, secretPath: next.path }), {
      replace: false,
    });
  return { folder, go };
}

/** The project of the current route; its routes always have the parameter. */
export function useProjectId(): string {
  const { projectId } = useParams();
  if (!projectId) throw new Error("useProjectId was used outside a project route");
  return projectId;
}
