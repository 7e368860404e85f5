/**
 * The secrets table filters in memory, on every keystroke, over as many as tens of thousands of
 * secrets: the lowercase keys and tag slugs are computed once per list (`indexSecrets`), so a
 * filter is one pass of `includes` over plain strings.
 */
export interface FilterableSecret {
  secretKey: string;
  tags?: readonly { slug: string }[] | undefined;
}

export interface SecretIndex<T extends FilterableSecret> {
  secrets: readonly T[];
  /** `secrets[i].secretKey`, lowercased. */
  keys: readonly string[];
  /** `secrets[i]`'s tag slugs. */
  tags: readonly (readonly string[])[];
}

const NO_TAGS: readonly string[] = [];

export function indexSecrets<T extends FilterableSecret>(secrets: readonly T[]): SecretIndex<T> {
  return {
    secrets,
    keys: secrets.map((secret) => secret.secretKey.toLowerCase()),
    tags: secrets.map((secret) => (secret.tags?.length ? secret.tags.map((tag) => tag.slug) : NO_TAGS)),
  };
}

interface LastFilter<T> {
  needle: string;
  tag: string | undefined;
  /** What it matched, and where those sit in the index. */
  matched: readonly T[];
  positions: readonly number[];
}

/*
 * Each index's last filter. A search that grows as one types matches a subset of what the
 * shorter one matched (a key that contains "_042" contains "_04"), so it scans those rows
 * rather than every key again; when it keeps them all, the same array comes back, and what
 * renders the rows has nothing new to render.
 */
const lastFilters = new WeakMap<SecretIndex<FilterableSecret>, LastFilter<FilterableSecret>>();

/** The secrets whose key contains `search` (any case) and that carry `tag`, in list order. */
export function filterSecrets<T extends FilterableSecret>(
  index: SecretIndex<T>,
  search: string,
  tag: string | undefined,
): readonly T[] {
  const needle = search.trim().toLowerCase();
  if (!needle && !tag) return index.secrets;
  const { secrets, keys, tags } = index;
  const last = lastFilters.get(index) as LastFilter<T> | undefined;
  const from = last !== undefined && last.tag === tag && needle.includes(last.needle) ? last : undefined;
  const candidates = from ? from.positions.length : secrets.length;
  const matched: T[] = [];
  const positions: number[] = [];
  for (let n = 0; n < candidates; n++) {
    const i = from ? (from.positions[n] as number) : n;
    if (needle && !(keys[i] as string).includes(needle)) continue;
    if (tag && !(tags[i] as readonly string[]).includes(tag)) continue;
    matched.push(secrets[i] as T);
    positions.push(i);
  }
  // Everything still matches: the same list as before.
  const kept = matched.length === candidates;
  const result = kept ? (from?.matched ?? secrets) : matched;
  lastFilters.set(index, { needle, tag, matched: result, positions: kept && from ? from.positions : positions });
  return result;
}

export interface TagOption {
  slug: string;
  color: string | null | undefined;
  count: number;
}

/** The tags the listed secrets carry, by slug, with how many carry each. */
export function tagOptions(
  secrets: readonly { tags?: readonly { slug: string; color?: string | null }[] | undefined }[],
) {
  const bySlug = new Map<string, TagOption>();
  for (const secret of secrets) {
    for (const tag of secret.tags ?? []) {
      const option = bySlug.get(tag.slug);
      if (option) option.count++;
      else bySlug.set(tag.slug, { slug: tag.slug, color: tag.color, count: 1 });
    }
  }
  return [...bySlug.values()].sort((a, b) => a.slug.localeCompare(b.slug));
}
