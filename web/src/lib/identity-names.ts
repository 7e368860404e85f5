/**
 * Identity names may repeat (Infisical allows it). Two names are the same when a reader could not
 * tell them apart: spaces around them and letter case aside.
 */
export function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The start of an id, enough to tell identities of the same name apart at a glance. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** The ids of the identities whose name another of them shares. */
export function namesakeIds(identities: readonly { id: string; name: string }[]): Set<string> {
  const byName = new Map<string, string[]>();
  for (const { id, name } of identities) {
    const key = name.trim().toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), id]);
  }
  return new Set([...byName.values()].filter((ids) => new Set(ids).size > 1).flat());
}
