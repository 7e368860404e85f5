/**
 * The overview's rows: a folder's keys across the project's environments. Each cell says whether
 * the key is there, and the row whether the values differ, from the per-value digests the
 * service sends to a caller who may read the values (equal digests, equal values). Where a
 * digest is missing (a server that sends none, a caller without `readValue`) the row is "not
 * compared": nothing is guessed.
 */

/** What the overview knows about one secret of one environment: never its value. */
export interface OverviewSecret {
  secretKey: string;
  version: number;
  secretComment: string;
  /** The service's keyed digest of the value; undefined when it sent none. */
  digest: string | undefined;
}

/** One environment's folder as read: its secrets, no such folder there, still loading, or failed. */
export type EnvironmentListing =
  | { state: "loaded"; secrets: readonly OverviewSecret[] }
  | { state: "no-folder" }
  | { state: "pending" }
  | { state: "error" };

export type OverviewCell =
  /** `group`: which distinct value this is (0, 1…) when the row's values differ; undefined otherwise. */
  | { kind: "present"; secret: OverviewSecret; group: number | undefined }
  | { kind: "missing" }
  /** The environment's folder is not read (yet, or it failed): nothing can be said. */
  | { kind: "unknown" };

/**
 * How the present values compare: `equal` and `differ` from the digests; `not-compared` when a
 * present value has none; `single` when fewer than two environments hold the key.
 */
export type Comparison = "equal" | "differ" | "not-compared" | "single";

export interface OverviewRow {
  secretKey: string;
  /** One per environment, in the environments' order. */
  cells: readonly OverviewCell[];
  /** The slugs of the environments (read) that lack the key. */
  missingIn: readonly string[];
  comparison: Comparison;
}

export interface OverviewFolder {
  name: string;
  /** Per environment: whether the folder exists there; undefined while not known. */
  presentIn: readonly (boolean | undefined)[];
}

const collator = new Intl.Collator("en");

function compare(cells: readonly OverviewCell[]): { comparison: Comparison; cells: readonly OverviewCell[] } {
  const present = cells.filter((cell) => cell.kind === "present");
  if (present.length < 2) return { comparison: "single", cells };
  if (present.some((cell) => cell.secret.digest === undefined)) return { comparison: "not-compared", cells };
  const groups = new Map<string, number>();
  for (const cell of present) {
    const digest = cell.secret.digest as string;
    if (!groups.has(digest)) groups.set(digest, groups.size);
  }
  if (groups.size === 1) return { comparison: "equal", cells };
  return {
    comparison: "differ",
    cells: cells.map((cell) =>
      cell.kind === "present" ? { ...cell, group: groups.get(cell.secret.digest as string) } : cell,
    ),
  };
}

/** Every key of the folder in any environment, in key order, with one cell per environment. */
export function overviewRows(environments: readonly string[], listings: readonly EnvironmentListing[]): OverviewRow[] {
  const byKey = new Map<string, (OverviewSecret | undefined)[]>();
  listings.forEach((listing, env) => {
    if (listing.state !== "loaded") return;
    for (const secret of listing.secrets) {
      let slots = byKey.get(secret.secretKey);
      if (!slots) {
        slots = new Array<OverviewSecret | undefined>(environments.length).fill(undefined);
        byKey.set(secret.secretKey, slots);
      }
      slots[env] = secret;
    }
  });
  const known = listings.map((listing) => listing.state === "loaded" || listing.state === "no-folder");
  return [...byKey.keys()].sort(collator.compare).map((secretKey) => {
    const slots = byKey.get(secretKey) as (OverviewSecret | undefined)[];
    const raw = environments.map((_, env): OverviewCell => {
      const secret = slots[env];
      if (secret) return { kind: "present", secret, group: undefined };
      return known[env] ? { kind: "missing" } : { kind: "unknown" };
    });
    const { comparison, cells } = compare(raw);
    return {
      secretKey,
      cells,
      missingIn: environments.filter((_, env) => cells[env]?.kind === "missing"),
      comparison,
    };
  });
}

/**
 * The sub-folders of the folder in any environment, by name, with where each exists. An
 * environment without the folder itself has none of its sub-folders.
 */
export function overviewFolders(
  listings: readonly ({ state: "loaded"; names: readonly string[] } | { state: "no-folder" | "pending" | "error" })[],
): OverviewFolder[] {
  const names = new Set<string>();
  for (const listing of listings) if (listing.state === "loaded") for (const name of listing.names) names.add(name);
  const sets = listings.map((listing) => (listing.state === "loaded" ? new Set(listing.names) : listing.state));
  return [...names].sort(collator.compare).map((name) => ({
    name,
    presentIn: sets.map((set) => (set instanceof Set ? set.has(name) : set === "no-folder" ? false : undefined)),
  }));
}

/** Which rows to show: all, those missing somewhere, or those whose values differ. */
export type OverviewFilter = "all" | "missing" | "differ";

export function filterOverview(rows: readonly OverviewRow[], search: string, filter: OverviewFilter): OverviewRow[] {
  const needle = search.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (needle === "" || row.secretKey.toLowerCase().includes(needle)) &&
      (filter === "all" || (filter === "missing" ? row.missingIn.length > 0 : row.comparison === "differ")),
  );
}

/** How many rows lack a key somewhere, and how many hold different values. */
export function overviewCounts(rows: readonly OverviewRow[]): { missing: number; differ: number } {
  let missing = 0;
  let differ = 0;
  for (const row of rows) {
    if (row.missingIn.length > 0) missing++;
    if (row.comparison === "differ") differ++;
  }
  return { missing, differ };
}

/** The letter that names a value group in the table: A, B, C… */
export const groupLetter = (group: number): string => String.fromCharCode(65 + (group % 26));
