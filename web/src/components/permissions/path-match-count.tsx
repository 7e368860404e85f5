import { useMemo } from "react";
import { useDebounced } from "@/hooks/use-debounced";
import { PathMatchResult } from "./path-match-result";
import { type ConditionRow, rowsToConditions } from "./rule-model";

/** Long enough that a pause in typing counts, short enough to feel live. */
const SETTLE_MS = 200;

interface PathMatchCountProps {
  projectId: string;
  subject: string;
  /** All the rule's condition rows: its path rows are counted, narrowed by its environment rows. */
  rows: readonly ConditionRow[];
}

const isBlank = (value: string | string[]) => [value].flat().every((v) => v.trim() === "");

/**
 * A live line under a rule's folder-path condition: how many of the project's folders it
 * matches in each environment, with the folders on expand. Counted once typing settles, by the
 * service's own engine. Loaded lazily, with the engine, only where a path condition is shown.
 */
export default function PathMatchCount({ projectId, subject, rows }: PathMatchCountProps) {
  const paths = rows.filter((row) => row.field === "secretPath");
  const blank = paths.some((row) => isBlank(row.value));
  // An environment condition still being typed narrows nothing yet.
  const counted = rows.filter(
    (row) => row.field === "secretPath" || (row.field === "environment" && !isBlank(row.value)),
  );
  const key = JSON.stringify(counted);
  const settledKey = useDebounced(key, SETTLE_MS);
  const conditions = useMemo(() => rowsToConditions(JSON.parse(settledKey) as ConditionRow[]), [settledKey]);

  return (
    <div className="min-h-5 text-[13px] text-muted-foreground">
      {blank ? (
        <p>Type a folder path or glob to see which folders it matches.</p>
      ) : (
        <PathMatchResult
          projectId={projectId}
          subject={subject}
          conditions={conditions}
          settling={key !== settledKey}
        />
      )}
    </div>
  );
}
