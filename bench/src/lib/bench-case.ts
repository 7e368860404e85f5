import type { Processes } from "./processes.ts";
import type { ResultRow } from "./result.ts";

export interface BenchContext {
  /** Everything a case starts goes here; the runner stops it after the case, pass or fail. */
  processes: Processes;
  /** A throwaway PostgreSQL the runner started (admin database URL), when one is available. */
  postgresUrl: string | undefined;
  /** A scratch directory of this run, removed afterwards. */
  scratchDir: string;
}

export interface BenchCase {
  id: string;
  title: string;
  run(context: BenchContext): Promise<ResultRow[]>;
}
