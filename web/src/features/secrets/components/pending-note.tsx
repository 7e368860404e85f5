import { TriangleAlert } from "lucide-react";
import type { SecretFolder } from "../api";
import type { PendingChange } from "../staging/staged-changes";
import { useReferenceIssues } from "./reference-flags";

const labels = {
  create: { text: "New", className: "bg-success-subtle text-success-subtle-foreground" },
  update: { text: "Edited", className: "bg-accent-subtle text-accent-subtle-foreground" },
  delete: { text: "Deleted", className: "bg-destructive-subtle text-destructive-subtle-foreground" },
} as const;

/** What changes for an edited secret, in a few words. */
export function changeSummary(pending: PendingChange, secretKey: string): string {
  const { change } = pending;
  if (change.kind === "create") return "Created on save";
  if (change.kind === "delete") return "Deleted on save";
  const parts = [
    change.newSecretKey ? `renamed from ${secretKey}` : undefined,
    change.secretValue !== undefined ? "new value" : undefined,
    change.secretComment !== undefined ? "new comment" : undefined,
  ].filter(Boolean);
  return parts.join(", ");
}

/**
 * The line under the key of a row with a pending change: what kind of change, then what the last
 * save said about it, or why a save would refuse it, or the references in its new value that do
 * not resolve, or else what changes.
 */
export function PendingNote({
  folder,
  secretKey,
  pending,
  problem,
}: {
  folder: SecretFolder;
  secretKey: string;
  pending: PendingChange;
  problem: string | undefined;
}) {
  const { change } = pending;
  const value = change.kind !== "delete" ? change.secretValue : undefined;
  const issues = useReferenceIssues(folder, value?.includes("${") ? value : undefined);
  const label = labels[change.kind];
  const trouble = pending.error ?? problem;
  const referenceNote =
    issues.length > 0
      ? `${issues.length === 1 ? "A reference does" : `${issues.length} references do`} not resolve: ${issues
          .map((issue) => `${issue.raw} (${issue.message})`)
          .join("; ")}`
      : undefined;
  return (
    <div className="flex h-4 min-w-0 items-center gap-2 text-xs leading-4">
      <span className={`shrink-0 rounded-sm px-1 font-medium ${label.className}`}>{label.text}</span>
      {trouble ? (
        <span role="alert" className="min-w-0 truncate text-destructive-subtle-foreground" title={trouble}>
          {trouble}
        </span>
      ) : referenceNote ? (
        <span
          className="inline-flex min-w-0 items-center gap-1 text-warning-subtle-foreground [&_svg]:size-3.5 [&_svg]:shrink-0"
          title={referenceNote}
        >
          <TriangleAlert aria-hidden />
          <span className="truncate">{referenceNote}</span>
        </span>
      ) : (
        <span className="min-w-0 truncate text-muted-foreground">{changeSummary(pending, secretKey)}</span>
      )}
    </div>
  );
}
