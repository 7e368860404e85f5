import { isMissingRoute, isUserSessionOnly } from "@/lib/api-error";
import type { SecretChange } from "./api";

export type ChangeGroup = "added" | "removed" | "changed" | "structure";

/** A commit's or a preview's changes grouped for reading: secrets added, removed, changed; folders and imports. */
export function groupChanges(changes: readonly SecretChange[]): Record<ChangeGroup, SecretChange[]> {
  const groups: Record<ChangeGroup, SecretChange[]> = { added: [], removed: [], changed: [], structure: [] };
  for (const change of changes) {
    if (change.type !== "secret") groups.structure.push(change);
    else if (change.changeType === "add") groups.added.push(change);
    else if (change.changeType === "delete") groups.removed.push(change);
    else groups.changed.push(change);
  }
  for (const list of Object.values(groups)) list.sort((a, b) => a.name.localeCompare(b.name));
  return groups;
}

/** "3 secrets added, 1 removed, 2 changed" and the like; "No changes" when there are none. */
export function describeChanges(changes: readonly SecretChange[]): string {
  const g = groupChanges(changes);
  const parts = [
    g.added.length ? `${g.added.length} added` : "",
    g.removed.length ? `${g.removed.length} removed` : "",
    g.changed.length ? `${g.changed.length} changed` : "",
    g.structure.length
      ? `${g.structure.length} folder or import ${g.structure.length === 1 ? "change" : "changes"}`
      : "",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "No changes";
}

/**
 * Why a server offers no commit history to this console, or undefined when the error is an
 * ordinary failure: a server without the commit routes (October 2024: "Route … not found"), or one
 * that serves them to user sessions only (mid-2026: 403 "Forbidden access to /api/v1/pit/…", which
 * the BFF answers as `UserSessionOnly`).
 */
export function commitsUnavailable(error: unknown): string | undefined {
  if (isMissingRoute(error)) {
    return "This server keeps snapshots of the folder but no commit history: who changed what is not recorded there.";
  }
  if (isUserSessionOnly(error)) {
    return "This server shows commit history to signed-in users only, not to machine identities such as this console's.";
  }
  return undefined;
}
