import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProjectAbility } from "@/components/permissions/ability";

export type { ProjectAbility };

/**
 * The signed-in identity's own rules in a project, as the server reports them, with the CASL
 * ability built from them. The request and CASL load with the answer, not with this module, so
 * a route table may prefetch this query without adding them (or the contract's endpoint table)
 * to the console's first download.
 */
export const projectAbilityQuery = (projectId: string) =>
  queryOptions({
    queryKey: ["project-permissions", projectId] as const,
    queryFn: async ({ signal }) =>
      (await import("@/components/permissions/ability")).fetchProjectAbility(projectId, signal),
    // One's own permissions change rarely; a page that needs them again reads them from the cache.
    staleTime: 30_000,
    retry: false,
  });

const checking: ProjectAbility = { can: () => false, reason: () => "Checking your permissions in this project…" };
/** A server that cannot report the caller's rules (an older Infisical) stays the only judge. */
const serverDecides: ProjectAbility = { can: () => true, reason: () => undefined };

/**
 * What the signed-in identity may do in a project, to disable controls with the reason
 * instead of failing after the click: `can(action, subject)` and `reason(action, subject)`
 * (undefined when allowed). While the rules load nothing is allowed; when the server cannot
 * report them every control stays enabled and the server decides. Loaders may prefetch
 * `projectAbilityQuery(projectId)` so the answer is there at first paint.
 */
export function useProjectAbility(projectId: string): ProjectAbility {
  const { data, isError } = useQuery(projectAbilityQuery(projectId));
  if (data) return data.ability;
  return isError ? serverDecides : checking;
}
