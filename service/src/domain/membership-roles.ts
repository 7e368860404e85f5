import type { Endpoints } from "@keyhold/contract";
import type { Kysely } from "kysely";
import ms from "ms";
import type { z } from "zod";
import { findCustomRolesBySlugs, type NewRoleRow } from "../data/project-memberships.ts";
import type { Database } from "../db/schema.ts";
import { BadRequestError, NotFoundError, PermissionBoundaryError } from "./errors.ts";
import {
  isPredefinedProjectRole,
  missingPermissions,
  type ProjectAbility,
  type ProjectRule,
  rulesOfRole,
} from "./project-permissions.ts";

/** The roles a membership is given: resolved to rows, temporary ends computed, within the boundary. */

export type RoleInput = z.output<Endpoints["identityMemberships.update"]["body"]>["roles"][number];

/** A role about to be stored, with the rules it grants (for the permission boundary). */
export interface ResolvedRole {
  row: NewRoleRow;
  rules: ProjectRule[];
}

/**
 * The end of a temporary role: start + range, the range read by `ms` as Infisical reads it
 * ("30m", "1h", "7d", "2 days", "60000").
 */
export function temporaryEnd(role: string, range: string, start: string): string {
  let rangeMs: number | undefined;
  try {
    rangeMs = ms(range as ms.StringValue) as number | undefined;
  } catch {
    rangeMs = undefined;
  }
  if (typeof rangeMs !== "number" || !Number.isFinite(rangeMs)) {
    throw new BadRequestError(
      `The temporary range "${range}" of role "${role}" is not a duration; use one such as "30m", "1h" or "7d"`,
    );
  }
  if (rangeMs <= 0) {
    throw new BadRequestError(`The temporary range of role "${role}" must be a positive duration`);
  }
  return new Date(Date.parse(start) + rangeMs).toISOString();
}

export const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(", ");

/**
 * The role rows for the inputs: predefined slugs as they are, other slugs as the project's
 * custom roles ("custom" + its id); unknown slugs are 404, like Infisical's.
 */
export async function resolveRoles(
  db: Kysely<Database>,
  projectId: string,
  inputs: readonly RoleInput[],
): Promise<ResolvedRole[]> {
  const customSlugs = [...new Set(inputs.map((r) => r.role).filter((slug) => !isPredefinedProjectRole(slug)))];
  const customs = new Map((await findCustomRolesBySlugs(db, projectId, customSlugs)).map((c) => [c.slug, c]));
  const unknown = customSlugs.filter((slug) => !customs.has(slug));
  if (unknown.length > 0) {
    throw new NotFoundError(`No role ${quoted(unknown)} in this project`);
  }
  return inputs.map((input) => {
    const custom = customs.get(input.role);
    const role = custom ? "custom" : input.role;
    const start = input.isTemporary ? new Date(input.temporaryAccessStartTime ?? "").toISOString() : null;
    const row: NewRoleRow = {
      role,
      customRoleId: custom?.id ?? null,
      isTemporary: input.isTemporary,
      temporaryRange: input.isTemporary ? (input.temporaryRange ?? null) : null,
      temporaryAccessStartTime: start,
      temporaryAccessEndTime:
        input.isTemporary && start ? temporaryEnd(input.role, input.temporaryRange ?? "", start) : null,
    };
    return { row, rules: rulesOfRole({ role, custom_role_permissions: custom?.permissions ?? null }) };
  });
}

/** An identity cannot grant, or act on someone holding, more than it holds itself. */
export function assertWithin(ability: ProjectAbility, rules: ProjectRule[], message: string): void {
  const missing = missingPermissions(ability, rules);
  if (missing.length > 0) throw new PermissionBoundaryError(message, { missingPermissions: missing });
}

export function assertCanGrant(ability: ProjectAbility, roles: readonly ResolvedRole[]): void {
  assertWithin(
    ability,
    roles.flatMap((r) => r.rules),
    "You cannot grant a role with permissions you do not hold yourself",
  );
}
