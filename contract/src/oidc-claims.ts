import picomatch from "picomatch";

/**
 * How an OIDC token's claims are matched against configured values: the service's bound claims,
 * subject and audiences, and the BFF's sign-in rules. One implementation for both.
 */

/** A value against one allowed pattern: equal, or matching it as a glob. */
export function globMatches(value: string, pattern: string): boolean {
  return value === pattern || picomatch.isMatch(value, pattern);
}

/** A claim against allowed values: booleans compare as "true"/"false", numbers as integers, arrays by any element. */
export function claimAllowed(value: unknown, allowed: readonly string[]): boolean {
  if (Array.isArray(value)) return value.some((item) => claimAllowed(item, allowed));
  if (typeof value === "boolean") return allowed.includes(String(value));
  if (typeof value === "number") return allowed.some((entry) => Number.parseInt(entry, 10) === value);
  return typeof value === "string" && allowed.some((entry) => globMatches(value, entry));
}

/** A claim by dot-path (`groups`, `repository.owner`). */
export function claimAt(payload: Record<string, unknown>, path: string): unknown {
  return path.split(".").reduce<unknown>(
    (node, key) =>
      // Own properties only: `constructor` or `toString` is no claim a token carries.
      node !== null && typeof node === "object" && Object.hasOwn(node, key)
        ? (node as Record<string, unknown>)[key]
        : undefined,
    payload,
  );
}
