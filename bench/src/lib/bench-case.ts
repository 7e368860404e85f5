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
  /** Left out of the default run (it needs servers the runner does not start): runs only when named. */
  onlyWhenNamed?: boolean;
  run(context: BenchContext): Promise<ResultRow[]>;
}

/** The named cases, or by default every case but the named-only ones; an unknown name is an error. */
export function selectCases(cases: readonly BenchCase[], wanted: readonly string[]): BenchCase[] {
  const unknown = wanted.filter((id) => !cases.some((c) => c.id === id));
  if (unknown.length > 0) {
    throw new Error(`unknown case(s): ${unknown.join(", ")}; known: ${cases.map((c) => c.id).join(", ")}`);
  }
  return wanted.length === 0 ? cases.filter((c) => !c.onlyWhenNamed) : cases.filter((c) => wanted.includes(c.id));
}
