import type { PrivilegeWithOwner } from "../data/identity-privileges.ts";
import { toIso, toIsoOrNull } from "../lib/time.ts";
import { parseStoredRules } from "./project-permissions.ts";

/** The privilege record of v2 responses. */
export function privilegeView(row: PrivilegeWithOwner) {
  return {
    id: row.id,
    slug: row.slug,
    isTemporary: row.is_temporary === 1,
    temporaryMode: row.temporary_mode,
    temporaryRange: row.temporary_range,
    temporaryAccessStartTime: toIsoOrNull(row.temporary_access_start_time),
    temporaryAccessEndTime: toIsoOrNull(row.temporary_access_end_time),
    permissions: parseStoredRules(row.permissions),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export function summaryView(row: PrivilegeWithOwner) {
  const { permissions: _rules, ...summary } = privilegeView(row);
  return summary;
}

/** Subjects v2 split off from v1's secrets; v1 answers leave their rules out. */
const hiddenFromV1 = new Set(["secret-imports", "secret-folders", "dynamic-secrets"]);

/** The privilege record of v1 responses: with its membership id, without the v2-only subjects. */
export function v1View(row: PrivilegeWithOwner) {
  const view = privilegeView(row);
  return {
    ...view,
    projectMembershipId: row.project_membership_id,
    permissions: view.permissions.filter((rule) => !hiddenFromV1.has(rule.subject)),
  };
}
