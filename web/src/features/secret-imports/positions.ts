/**
 * The order of a folder's imports. Positions are 1..n without gaps; moving one import from p to
 * t shifts those in between by one, as the server does (t > p: p < position ≤ t move up by one;
 * t < p: t ≤ position < p move down by one). The console sends only the moved import and its new
 * position; these functions say which position a gesture asks for and, while the server answers,
 * what the list will look like.
 */

export interface Positioned {
  id: string;
  position: number;
}

/** The list sorted by position (the server's order; a list from an older server may come unsorted). */
export function byPosition<T extends Positioned>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.position - b.position);
}

/** The position one step up or down from `id`'s, or undefined at either end. */
export function stepTarget(items: readonly Positioned[], id: string, step: -1 | 1): number | undefined {
  const ordered = byPosition(items);
  const index = ordered.findIndex((item) => item.id === id);
  const neighbour = index < 0 ? undefined : ordered[index + step];
  return neighbour?.position;
}

/** The position a drag of `activeId` dropped over `overId` asks for, or undefined when nothing moves. */
export function dropTarget(items: readonly Positioned[], activeId: string, overId: string | undefined) {
  if (overId === undefined || overId === activeId) return undefined;
  const active = items.find((item) => item.id === activeId);
  const over = items.find((item) => item.id === overId);
  if (!active || !over || active.position === over.position) return undefined;
  return over.position;
}

/** The list after moving `id` to position `target`, renumbered 1..n (the server's rule, for the optimistic view). */
export function moveTo<T extends Positioned>(items: readonly T[], id: string, target: number): T[] {
  const ordered = byPosition(items);
  const from = ordered.findIndex((item) => item.id === id);
  if (from < 0) return ordered;
  const to = Math.min(Math.max(target, 1), ordered.length) - 1;
  const [moved] = ordered.splice(from, 1);
  if (moved) ordered.splice(to, 0, moved);
  return ordered.map((item, index) => ({ ...item, position: index + 1 }));
}
