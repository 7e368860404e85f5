import { placeParams } from "@/config/place";

/**
 * Where the secrets page is, as kept in its URL: `?env=dev&path=/app/api&q=db&tag=backend&secret=DB_URL`.
 * The environment and folder are the page's address; the search text and tag only narrow the
 * table; `secret` names the secret open in the drawer. Secret values never appear here.
 */
export interface SecretLocation {
  /** The environment's slug; undefined when the URL names none (the project's first is used). */
  environment: string | undefined;
  /** The folder: "/" or "/a/b", without a trailing slash. */
  secretPath: string;
  /** Part of a key, matched without regard to case; "" for every secret. */
  search: string;
  /** A tag's slug; undefined for every tag. */
  tag: string | undefined;
  /** The key of the secret open in the drawer (a name, never a value); undefined when none is. */
  secret: string | undefined;
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** A folder path as the service writes it: leading slash, no trailing or doubled slashes, no odd segments. */
export function normalizeSecretPath(raw: string | null | undefined): string {
  const segments = (raw ?? "").split("/").filter((segment) => segment !== "");
  if (segments.some((segment) => !SEGMENT.test(segment))) return "/";
  return `/${segments.join("/")}`;
}

export function readSecretLocation(params: URLSearchParams): SecretLocation {
  const environment = params.get(placeParams.environment)?.trim();
  const tag = params.get("tag")?.trim();
  const secret = params.get("secret")?.trim();
  return {
    environment: environment || undefined,
    secretPath: normalizeSecretPath(params.get(placeParams.secretPath)),
    search: params.get("q") ?? "",
    tag: tag || undefined,
    secret: secret || undefined,
  };
}

/** The URL's search params for a location, leaving out defaults and keeping unrelated params. */
export function writeSecretLocation(params: URLSearchParams, patch: Partial<SecretLocation>): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | undefined) => {
    if (value === undefined || value === "") next.delete(key);
    else next.set(key, value);
  };
  if ("environment" in patch) set(placeParams.environment, patch.environment);
  if ("secretPath" in patch) set(placeParams.secretPath, patch.secretPath === "/" ? undefined : patch.secretPath);
  if ("search" in patch) set("q", patch.search);
  if ("tag" in patch) set("tag", patch.tag);
  // A secret is open in one environment and folder: going elsewhere closes it.
  if ("secret" in patch || "environment" in patch || "secretPath" in patch) set("secret", patch.secret);
  return next;
}

/** The address of a folder (and of one secret open there) alone, without the current search or tag. */
export function folderHref(place: { environment: string; secretPath: string }, secret?: string): string {
  return `?${writeSecretLocation(new URLSearchParams(), { ...place, secret })}`;
}

export interface PathCrumb {
  name: string;
  path: string;
}

/** The folders from the root down to `secretPath`, each with its own path. */
export function pathCrumbs(secretPath: string): PathCrumb[] {
  const segments = secretPath.split("/").filter(Boolean);
  return segments.map((name, i) => ({ name, path: `/${segments.slice(0, i + 1).join("/")}` }));
}

/** The path of a folder named `name` inside `secretPath`. */
export function childPath(secretPath: string, name: string): string {
  return secretPath === "/" ? `/${name}` : `${secretPath}/${name}`;
}
