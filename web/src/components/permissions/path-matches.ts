import type { PermissionRuleInput } from "@keyhold/contract";
import { buildProjectAbility, projectSubject } from "@keyhold/contract/permission-engine";
import type { EnvironmentScope } from "@keyhold/contract/permission-grid";

/*
 * Which of the project's folders a rule's path and environment conditions select, decided by the
 * service's own engine (the same `$glob`, `$eq`, `$ne` and `$in`). Loaded lazily with the engine.
 */

export interface EnvironmentMatches {
  environment: string;
  /** Matching folder paths, "/" first, then in path order. */
  folders: string[];
}

export type PathMatches = { valid: true; matches: EnvironmentMatches[] } | { valid: false; message: string };

/** The conditions a folder count depends on: the path and, where set, the environment. */
const counted = new Set(["secretPath", "environment"]);

/**
 * For each environment of `scope`, the folders (and "/") where a rule of `subject` with
 * `conditions` would apply, as far as its path and environment say; other conditions (name,
 * tags) are left out, since they narrow secrets, not folders.
 */
export function matchPaths(
  subject: string,
  conditions: PermissionRuleInput["conditions"],
  scope: readonly EnvironmentScope[],
): PathMatches {
  const narrowing = Object.fromEntries(Object.entries(conditions ?? {}).filter(([field]) => counted.has(field)));
  let ability: ReturnType<typeof buildProjectAbility>;
  try {
    ability = buildProjectAbility([{ subject, action: ["match"], conditions: narrowing }]);
    // CASL compiles conditions when first asked: a malformed one throws here, not later.
    ability.can("match", projectSubject(subject, { environment: "", secretPath: "/" }));
  } catch (error) {
    return { valid: false, message: error instanceof Error ? error.message : String(error) };
  }
  return {
    valid: true,
    matches: scope.map(({ slug, folders }) => ({
      environment: slug,
      folders: [...new Set(["/", ...[...folders].sort()])].filter((folder) =>
        ability.can("match", projectSubject(subject, { environment: slug, secretPath: folder })),
      ),
    })),
  };
}
