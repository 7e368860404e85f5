import type { ProjectPermissionsView } from "@keyhold/contract";
import { toIso, toIsoOrNull } from "../lib/time.ts";
import { normalizeRule, type ProjectAccess } from "./project-permissions.ts";

/**
 * The caller's own effective rules in a project and its membership with every role row
 * (expired temporary ones included, so the console can say what lapsed), for the console to
 * grey out what the caller may not do.
 */
export function permissionsView({ membership, roles, rules }: ProjectAccess): ProjectPermissionsView {
  return {
    permissions: rules.map(normalizeRule),
    membership: {
      id: membership.id,
      projectId: membership.project_id,
      identityId: membership.identity_id,
      userId: membership.user_id,
      createdAt: toIso(membership.created_at),
      updatedAt: toIso(membership.updated_at),
      roles: roles.map((role) => ({
        id: role.id,
        role: role.role,
        customRoleId: role.custom_role_id,
        customRoleSlug: role.custom_role_slug ?? null,
        isTemporary: role.is_temporary === 1,
        temporaryMode: role.temporary_mode,
        temporaryRange: role.temporary_range,
        temporaryAccessStartTime: toIsoOrNull(role.temporary_access_start_time),
        temporaryAccessEndTime: toIsoOrNull(role.temporary_access_end_time),
        createdAt: toIso(role.created_at),
        updatedAt: toIso(role.updated_at),
      })),
    },
  };
}
