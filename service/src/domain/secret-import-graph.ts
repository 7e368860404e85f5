/**
 * The pure rules of secret imports: whether a new import would close a cycle, and how positions
 * move. Nothing here reads the database.
 */

/** A folder by where it is: environment id and path ("/" or "/a/b"). */
export interface FolderPlace {
  envId: string;
  path: string;
}

const placeKey = (p: FolderPlace) => `${p.envId}\u0000${p.path}`;

export interface ImportEdge {
  /** The importing folder. */
  from: FolderPlace;
  /** The folder it reads. */
  to: FolderPlace;
}

/**
 * The chain of folders a new import `from` ← `to` would close into a cycle, starting and ending at
 * `from` (`[from, to, …, from]`); undefined when there is none. Importing a folder into itself is
 * the shortest cycle.
 */
export function findImportCycle(
  edges: readonly ImportEdge[],
  from: FolderPlace,
  to: FolderPlace,
): FolderPlace[] | undefined {
  const out = new Map<string, FolderPlace[]>();
  for (const edge of edges) {
    const key = placeKey(edge.from);
    out.set(key, [...(out.get(key) ?? []), edge.to]);
  }
  const target = placeKey(from);
  // Breadth first from the source, so the reported chain is a shortest one.
  const previous = new Map<string, FolderPlace | null>([[placeKey(to), null]]);
  const queue: FolderPlace[] = [to];
  while (queue.length > 0) {
    const place = queue.shift() as FolderPlace;
    if (placeKey(place) === target) {
      const chain: FolderPlace[] = [];
      for (let at: FolderPlace | null = place; at; at = previous.get(placeKey(at)) ?? null) chain.unshift(at);
      return [from, ...chain];
    }
    for (const next of out.get(placeKey(place)) ?? []) {
      if (!previous.has(placeKey(next))) {
        previous.set(placeKey(next), place);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/**
 * The shift that moving one item from position `from` to `to` makes in a 1..n list: those in
 * between move one place towards the gap it leaves. Undefined when nothing else moves.
 */
export function positionShift(from: number, to: number): { lower: number; upper: number; by: 1 | -1 } | undefined {
  if (to > from) return { lower: from + 1, upper: to, by: -1 };
  if (to < from) return { lower: to, upper: from - 1, by: 1 };
  return undefined;
}
