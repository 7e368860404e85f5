import ms from "ms";

/** How far the radar extends a grant in one step. */
export const EXTENSIONS = ["1h", "1d", "7d", "30d"] as const;
export type Extension = (typeof EXTENSIONS)[number];

const SECOND = 1000;
const units: [number, string][] = [
  [24 * 60 * 60 * SECOND, "d"],
  [60 * 60 * SECOND, "h"],
  [60 * SECOND, "m"],
  [SECOND, "s"],
];

/** A duration as the largest whole unit the server reads ("25h", "90m"), rounded up to the second. */
export function formatRange(durationMs: number): string {
  const whole = Math.max(SECOND, Math.ceil(durationMs / SECOND) * SECOND);
  for (const [size, unit] of units) {
    if (whole % size === 0) return `${whole / size}${unit}`;
  }
  return `${whole / SECOND}s`;
}

/**
 * A temporary grant's end is start + range, and its start stays as recorded: extending it moves
 * the end by `by` from the later of its current end and now (an expired grant restarts from now),
 * and sends the range that reaches that end.
 */
export function extendedRange(grant: { start: string; endsAt: string }, by: Extension, now: number) {
  const start = Date.parse(grant.start);
  const from = Math.max(Date.parse(grant.endsAt), now);
  const end = from + (ms(by) as number);
  return { temporaryRange: formatRange(end - start), temporaryAccessStartTime: new Date(start).toISOString(), end };
}
