import { createMongoAbility, type MongoAbility } from "@casl/ability";
import { endpoints, type PermissionRule } from "@keyhold/contract";
import { call } from "@/lib/api-client";
import { actionLabel, subjectLabel } from "./labels";

/**
 * The caller's project permissions as a CASL ability, for greying out what it may not do.
 * Only subject types are checked (`can("edit", "role")`): CASL then counts a conditional
 * allow rule as possible and a conditional deny as not decisive, as the server's own check
 * of a subject type does; conditions themselves are never evaluated here.
 */
export interface ProjectAbility {
  can: (action: string, subject: string) => boolean;
  /** Why an action is not allowed, in one sentence; undefined when it is. */
  reason: (action: string, subject: string) => string | undefined;
}

export function projectAbility(rules: readonly PermissionRule[]): ProjectAbility {
  const ability: MongoAbility = createMongoAbility(
    rules.map((rule) => ({
      subject: rule.subject,
      action: rule.action,
      inverted: rule.inverted === true,
      ...(rule.conditions && typeof rule.conditions === "object"
        ? { conditions: rule.conditions as Record<string, unknown> }
        : {}),
    })),
  );
  return {
    can: (action, subject) => ability.can(action, subject),
    reason: (action, subject) => {
      if (ability.can(action, subject)) return undefined;
      const what = `“${actionLabel(action)}” on ${subjectLabel(subject).toLowerCase()}`;
      return ability.relevantRuleFor(action, subject)?.inverted
        ? `A deny rule in your project permissions forbids ${what}.`
        : `Your project permissions do not include ${what}.`;
    },
  };
}

/** The caller's own rules in a project and the ability built from them (loaded on demand, with CASL). */
export async function fetchProjectAbility(projectId: string, signal?: AbortSignal) {
  const { data } = await call(endpoints["projects.getPermissions"], { params: { workspaceId: projectId } }, { signal });
  return { ...data, ability: projectAbility(data.permissions) };
}
