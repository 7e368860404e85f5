import {
  type MissingPermission,
  missingPermissions,
  type ProjectAbility,
  type ProjectFields,
  type ProjectRule,
  projectSubject,
  rulesAbout,
} from "@keyhold/contract/permission-engine";
import { PermissionBoundaryError, PermissionDeniedError } from "./errors.ts";

/**
 * The service's side of project permissions: the shared evaluation (`@keyhold/contract/permission-engine`)
 * turned into its 403 answers.
 */

export function assertCan(ability: ProjectAbility, action: string, subjectType: string, fields?: ProjectFields): void {
  if (ability.cannot(action, projectSubject(subjectType, fields))) {
    throw new PermissionDeniedError(
      `You are not allowed to ${action} on ${subjectType}`,
      rulesAbout(ability, subjectType),
    );
  }
}

/** Throws 403 PermissionBoundaryError when `rules` grant something `ability` does not hold. */
export function assertBoundary(ability: ProjectAbility, rules: ProjectRule[]): void {
  const missing: MissingPermission[] = missingPermissions(ability, rules);
  if (missing.length > 0) {
    throw new PermissionBoundaryError("You cannot grant permissions you do not hold yourself", {
      missingPermissions: missing,
    });
  }
}
