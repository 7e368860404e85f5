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

/** The secrets whose key contains `search` (any case) and that carry `tag`, in list order. */
export function filterSecrets<T extends FilterableSecret>(
  index: SecretIndex<T>,
  search: string,
  tag: string | undefined,
): readonly T[] {
  const needle = search.trim().toLowerCase();
  if (!needle && !tag) return index.secrets;
  const { secrets, keys, tags } = index;
  const out: T[] = [];
  for (let i = 0; i < secrets.length; i++) {
    if (needle && !(keys[i] as string).includes(needle)) continue;
    if (tag && !(tags[i] as readonly string[]).includes(tag)) continue;
    out.push(secrets[i] as T);
  }
  return out;
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
