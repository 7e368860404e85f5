import type { PermissionRuleInput } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import { type EnvironmentMatches, matchPaths } from "./path-matches";
import { previewDataQueries } from "./preview-data";

/** Folders listed on expand, at most; the count says how many there are in all. */
const LISTED = 50;

interface PathMatchResultProps {
  projectId: string;
  subject: string;
  conditions: PermissionRuleInput["conditions"];
  /** The person is still typing: the line shown is for what was typed before. */
  settling: boolean;
}

/** "Matches 12 folders in prod, 3 in dev": environments without a match are left out. */
export function matchSentence(matches: readonly EnvironmentMatches[]): string {
  const found = matches.filter((entry) => entry.folders.length > 0);
  if (found.length === 0) return "Matches no folder in this project.";
  const parts = found.map(
    ({ environment, folders }, index) =>
      `${folders.length}${index === 0 ? (folders.length === 1 ? " folder" : " folders") : ""} in ${environment}`,
  );
  return `Matches ${parts.join(", ")}.`;
}

/** The count of folders a rule's path selects, on the project's real folders. */
export function PathMatchResult({ projectId, subject, conditions, settling }: PathMatchResultProps) {
  const scope = useQuery({ ...previewDataQueries.scope(projectId), meta: { errorShownInPlace: true } });
  const result = useMemo(
    () => (scope.data ? matchPaths(subject, conditions, scope.data) : undefined),
    [scope.data, subject, conditions],
  );

  if (scope.isPending) return <p role="status">Counting matching folders…</p>;
  if (scope.isError) {
    return (
      <div className="flex flex-wrap items-center gap-x-2">
        <p role="status">{`Folders could not be counted: ${errorSummary(scope.error, "the server did not answer")}`}</p>
        <Button variant="link" size="sm" className="h-5 px-0 text-[13px]" onClick={() => scope.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!result?.valid) {
    return <p role="status">{`This path cannot be matched: ${result?.message ?? "it is not valid"}.`}</p>;
  }

  const listed = result.matches.flatMap(({ environment, folders }) =>
    folders.map((folder) => ({ environment, folder })),
  );
  return (
    <div className={cn("transition-opacity", (settling || scope.isFetching) && "opacity-60")}>
      <p role="status" aria-atomic="true">
        {matchSentence(result.matches)}
      </p>
      {listed.length > 0 ? (
        <details className="group">
          <summary className="cursor-pointer text-xs underline-offset-2 hover:underline focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-ring">
            <span className="group-open:hidden">Show the folders</span>
            <span className="hidden group-open:inline">Hide the folders</span>
          </summary>
          <ul aria-label="Matching folders" className="mt-1 grid max-h-48 gap-0.5 overflow-y-auto pr-2">
            {listed.slice(0, LISTED).map(({ environment, folder }) => (
              <li key={`${environment}:${folder}`} className="flex min-w-0 gap-2 text-xs">
                <span title={environment} className="w-16 shrink-0 truncate text-muted-foreground">
                  {environment}
                </span>
                <code className="min-w-0 truncate font-mono text-foreground">{folder}</code>
              </li>
            ))}
            {listed.length > LISTED ? <li className="text-xs">{`and ${listed.length - LISTED} more`}</li> : null}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
