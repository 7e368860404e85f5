/** One line of the benchmark table: a Keyhold figure, optionally beside its floor's. */
export interface ResultRow {
  /** What was measured, such as "authenticated read (SQLite)". */
  case: string;
  /** The figure's name and unit, such as "req/s" or "p50 ms". */
  metric: string;
  keyhold: number;
  /** The floor measured in the same run, when the case has one. */
  reference?: number;
  referenceName?: string;
  /** Whether a larger figure is better (throughput, scores) or worse (latency, bytes). */
  higherIsBetter: boolean;
}

/** Keyhold against its floor, as the ratio that reads "fraction of the floor" either way round. */
export function ratioOf(row: ResultRow): number | undefined {
  if (row.reference === undefined || row.reference === 0) return undefined;
  return row.keyhold / row.reference;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of nothing");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
