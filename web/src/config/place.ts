/**
 * The search params naming an environment (its slug) and a folder, the same on every page that
 * shows one (`?env=dev&path=/app`), so going from one such page to another keeps the place.
 */
export const placeParams = { environment: "env", secretPath: "path" } as const;

/** An environment and a folder, as the URL of a page that shows one carries them. */
export interface FolderPlace {
  environment?: string | undefined;
  /** "/" (the default, left out of URLs) or "/a/b". */
  secretPath?: string | undefined;
}

/** The place a URL names; `?environment=`, which the imports page once used, still counts. */
export function readPlace(params: URLSearchParams): FolderPlace {
  const environment = (params.get(placeParams.environment) ?? params.get("environment"))?.trim();
  const secretPath = params.get(placeParams.secretPath)?.trim();
  return { environment: environment || undefined, secretPath: secretPath || undefined };
}

/** `params` with the place set (an empty part or the root folder is left out) and the older name dropped. */
export function writePlace(params: URLSearchParams, place: FolderPlace): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete("environment");
  for (const [key, value] of [
    [placeParams.environment, place.environment],
    [placeParams.secretPath, place.secretPath === "/" ? undefined : place.secretPath],
  ] as const) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  return next;
}

/** A page's href naming a place. */
export function withPlace(href: string, place: FolderPlace): string {
  const search = writePlace(new URLSearchParams(), place).toString();
  return search ? `${href}?${search}` : href;
}
