import { useQueries, useQuery } from "@tanstack/react-query";
import { TriangleAlert } from "lucide-react";
import { useMemo } from "react";
import { isApiError } from "@/lib/api-error";
import { importSourceLabel } from "@/lib/import-precedence";
import { cn } from "@/lib/cn";
import type { SecretFolder } from "../api";
import { secretQueries } from "../queries";
import { parseReferences } from "../references";

export interface ReferenceIssue {
  raw: string;
  message: string;
}

/**
 * What is wrong with the references a value holds, read from the folders they name (names only,
 * as the table lists them): a key the folder does not have, a folder or environment that does
 * not exist, or one the signed-in person may not read (the service answers 403). The folder's own
 * keys are `localKeys` when given (e.g. with staged changes), else the folder's list.
 */
export function useReferenceIssues(
  folder: SecretFolder,
  value: string | undefined,
  localKeys?: ReadonlySet<string>,
): ReferenceIssue[] {
  const references = useMemo(() => (value ? parseReferences(value) : []), [value]);
  const hasLocal = references.some((ref) => ref.environment === undefined);
  const local = useQuery({ ...secretQueries.list(folder), enabled: hasLocal && !localKeys });
  const places = useMemo(() => {
    const seen = new Map<string, { environment: string; secretPath: string }>();
    for (const ref of references) {
      if (ref.environment === undefined) continue;
      seen.set(`${ref.environment}\u0000${ref.secretPath}`, {
        environment: ref.environment,
        secretPath: ref.secretPath,
      });
    }
    return [...seen.values()];
  }, [references]);
  const lists = useQueries({
    queries: places.map((place) => ({
      ...secretQueries.list({ projectId: folder.projectId, ...place }),
      retry: false,
    })),
  });

  const ownKeys = localKeys ?? (local.data ? new Set(local.data.secrets.map((secret) => secret.secretKey)) : undefined);
  const issues: ReferenceIssue[] = [];
  for (const ref of references) {
    if (ref.environment === undefined) {
      if (ownKeys && !ownKeys.has(ref.secretKey)) {
        issues.push({ raw: ref.raw, message: `${ref.secretKey} is not a key of this folder` });
      }
      continue;
    }
    const where = importSourceLabel(ref.environment, ref.secretPath);
    const index = places.findIndex((p) => p.environment === ref.environment && p.secretPath === ref.secretPath);
    const list = lists[index];
    if (!list || list.isPending) continue;
    if (list.isError) {
      issues.push({
        raw: ref.raw,
        message: isApiError(list.error, 403)
          ? `You may not read ${where}: whoever reads this value needs access there too`
          : isApiError(list.error, 404)
            ? `There is no folder ${where}`
            : `Could not check ${where}`,
      });
    } else if (!list.data.secrets.some((secret) => secret.secretKey === ref.secretKey)) {
      issues.push({ raw: ref.raw, message: `${ref.secretKey} is not in ${where}` });
    }
  }
  return issues;
}

/** The value's references that do not resolve, listed under it. */
export function ReferenceFlags({ issues, className }: { issues: readonly ReferenceIssue[]; className?: string }) {
  if (issues.length === 0) return null;
  return (
    <ul
      aria-label="References that do not resolve"
      className={cn(
        "grid gap-1 rounded-md border border-warning-border bg-warning-subtle px-3 py-2 text-[13px] text-warning-subtle-foreground",
        className,
      )}
    >
      {issues.map((issue) => (
        <li key={issue.raw} className="flex min-w-0 items-start gap-2">
          <TriangleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0" />
          <span className="min-w-0">
            <span className="font-mono">{issue.raw}</span>: {issue.message}.
          </span>
        </li>
      ))}
    </ul>
  );
}
