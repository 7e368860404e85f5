/**
 * Who supplies a key that a folder's imports provide, as the server reads it: the folder's own
 * secret wins every key; among imports, the one placed last wins (the server searches the
 * imports from the last position up, after the folder's own secrets).
 */
export interface KeyPrecedence<S> {
  /** The import that supplies the key; undefined when the folder's own secret does. */
  supplier: S | undefined;
  /** The imports that also provide the key and lose it to the supplier, first position first. */
  overridden: S[];
}

/**
 * Every key some import provides, with its supplier and the imports it overrides. `imports` are
 * in position order (first to last); keys only the folder itself holds are not in the map.
 */
export function importPrecedence<S>(
  imports: readonly S[],
  keysOf: (source: S) => Iterable<string>,
  localKeys: Iterable<string>,
): Map<string, KeyPrecedence<S>> {
  const local = localKeys instanceof Set ? (localKeys as ReadonlySet<string>) : new Set(localKeys);
  const result = new Map<string, KeyPrecedence<S>>();
  // From the last import to the first: the first to claim a key supplies it, unless the folder has it.
  for (let i = imports.length - 1; i >= 0; i--) {
    const source = imports[i] as S;
    for (const key of new Set(keysOf(source))) {
      const known = result.get(key);
      if (known) known.overridden.unshift(source);
      else if (local.has(key)) result.set(key, { supplier: undefined, overridden: [source] });
      else result.set(key, { supplier: source, overridden: [] });
    }
  }
  return result;
}

/** A short name for an import's source: the environment's slug and the folder's path, e.g. `staging:/db`. */
export function importSourceLabel(environment: string, path: string): string {
  return `${environment}:${path}`;
}
