import { trustedIpMatcher as firstMatchingRange } from "@keyhold/contract";
import type { StoredTrustedIp } from "../data/auth-methods.ts";

/** Entries are read by the contract's rule, which the console's editor applies too. */
export { parseTrustedIp } from "@keyhold/contract";

type Matcher = (callerIp: string) => boolean;

/** Parsed ranges by their stored JSON; the key is the content, so a changed list is a new entry. */
const matchers = new Map<string, Matcher>();
const MAX_MATCHERS = 1_000;

/**
 * A matcher for a stored list of trusted ranges (the JSON of the auth method's column), parsed
 * once per distinct list and process. Being keyed by the list itself, it can never be stale.
 */
export function trustedIpMatcher(storedJson: string): Matcher {
  let matcher = matchers.get(storedJson);
  if (matcher) return matcher;
  matcher = compileMatcher(JSON.parse(storedJson) as StoredTrustedIp[]);
  if (matchers.size >= MAX_MATCHERS) matchers.clear();
  matchers.set(storedJson, matcher);
  return matcher;
}

function compileMatcher(trusted: readonly StoredTrustedIp[]): Matcher {
  const firstMatch = firstMatchingRange(trusted);
  return (callerIp) => firstMatch(callerIp) >= 0;
}

/** Whether a caller address (as Fastify reports it, possibly IPv4-mapped IPv6) is in any range. */
export function isIpTrusted(callerIp: string, trusted: readonly StoredTrustedIp[]): boolean {
  return compileMatcher(trusted)(callerIp);
}
