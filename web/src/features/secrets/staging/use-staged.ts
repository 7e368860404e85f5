import { useCallback, useMemo, useState } from "react";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { emptyStaged, type Staged, stagedCount } from "./staged-changes";

/**
 * A page's pending changes, held in memory only (never in storage or the address), with the
 * console's guard: leaving the page or reloading while something is staged asks first.
 * `change(step)` applies one of the model's functions, e.g.
 * `change((s) => stageEdit(s, place, key, { secretValue }))`.
 */
export function useStaged() {
  const [staged, setStaged] = useState<Staged>(emptyStaged);
  const count = stagedCount(staged);
  const confirmDiscard = useUnsavedChanges(count > 0);
  const change = useCallback((step: (current: Staged) => Staged) => setStaged(step), []);
  const discardAll = useCallback(() => setStaged(emptyStaged), []);
  return useMemo(
    () => ({ staged, count, change, discardAll, confirmDiscard }),
    [staged, count, change, discardAll, confirmDiscard],
  );
}

export type StagedState = ReturnType<typeof useStaged>;
