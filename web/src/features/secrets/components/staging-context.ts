import { createContext, useContext } from "react";
import type { StagedState } from "../staging/use-staged";

/** The secrets page's pending changes (see `useStaged`), for the table's rows and the review. */
export const StagingContext = createContext<StagedState | undefined>(undefined);

export function useStaging(): StagedState {
  const staging = useContext(StagingContext);
  if (!staging) throw new Error("useStaging needs the secrets page's StagingContext");
  return staging;
}
