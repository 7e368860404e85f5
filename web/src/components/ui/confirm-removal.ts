/** One kind of thing a delete takes with it: how many, and its noun in the singular and the plural. */
export interface RemovedCount {
  count: number;
  one: string;
  many: string;
}

/**
 * What a delete takes with it, as a query reads it: still counting, not countable (the error),
 * or counted. A query whose data is being read again counts as counting, so a dialog never shows
 * the counts of an earlier opening.
 */
export interface Counting {
  status: "pending" | "error" | "success";
  data?: readonly RemovedCount[] | undefined;
  error?: unknown;
  isFetching?: boolean;
}

/** What the confirm dialog asks for, decided from what goes with the deleted thing. */
export type Removal =
  | { state: "counting" }
  | { state: "uncounted"; error: unknown }
  | { state: "counted"; counts: readonly RemovedCount[] };

/** The counts in words, the empty ones left out: "42 secrets, 3 folders and 2 imports", or "" when nothing. */
export function describeCounts(counts: readonly RemovedCount[]): string {
  const words = counts
    .filter((item) => item.count > 0)
    .map((item) => `${item.count} ${item.count === 1 ? item.one : item.many}`);
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

export function removalOf(counting: Counting): Removal {
  if (counting.status === "error") return { state: "uncounted", error: counting.error };
  if (counting.status === "pending" || counting.isFetching || !counting.data) return { state: "counting" };
  return { state: "counted", counts: counting.data };
}

/** Several readings as one: counting while any is, not countable when any failed, else every count. */
export function allCounting(parts: readonly Counting[]): Counting {
  const failed = parts.find((part) => part.status === "error");
  if (failed) return { status: "error", error: failed.error };
  if (parts.some((part) => part.status === "pending" || part.isFetching || !part.data)) return { status: "pending" };
  return { status: "success", data: parts.flatMap((part) => part.data ?? []) };
}

/**
 * The one rule for deletes: a delete that takes anything else with it (any count above zero), or
 * whose contents could not be counted, asks for the name to be typed; one that takes nothing
 * confirms plainly. `always` is for things whose delete always takes others with it. While the
 * counts are read, nothing can be confirmed.
 */
export function confirmRule(removal: Removal | undefined, always = false): { typeName: boolean; waiting: boolean } {
  if (!removal) return { typeName: always, waiting: false };
  switch (removal.state) {
    case "counting":
      return { typeName: always, waiting: true };
    case "uncounted":
      return { typeName: true, waiting: false };
    case "counted":
      return { typeName: always || removal.counts.some((item) => item.count > 0), waiting: false };
  }
}
