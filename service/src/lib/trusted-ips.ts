import ipaddr from "ipaddr.js";
import type { StoredTrustedIp } from "../data/auth-methods.ts";

/**
 * Parses one trusted IP entry: an IPv4 or IPv6 address, or a CIDR block. Returns the
 * stored form `{ipAddress, type, prefix?}`, or undefined when the entry is not valid.
 * IPv4 must be four-part decimal: ipaddr.js would otherwise accept forms like "10" or "0x0a.1".
 */
export function parseTrustedIp(entry: string): StoredTrustedIp | undefined {
  const text = entry.trim();
  if (text.includes("/")) {
    if (!ipaddr.IPv4.isValidCIDRFourPartDecimal(text) && !ipaddr.IPv6.isValidCIDR(text)) return undefined;
    const [address, prefix] = ipaddr.parseCIDR(text);
    // An IPv4-mapped IPv6 block (::ffff:10.0.0.0/104) is stored as the IPv4 block it covers.
    if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
      if (prefix < 96) return undefined;
      const v4 = (address as ipaddr.IPv6).toIPv4Address();
      return { ipAddress: v4.toString(), type: "ipv4", prefix: prefix - 96 };
    }
    return { ipAddress: address.toString(), type: address.kind(), prefix };
  }
  if (!ipaddr.IPv4.isValidFourPartDecimal(text) && !ipaddr.IPv6.isValid(text)) return undefined;
  const address = ipaddr.process(text);
  return { ipAddress: address.toString(), type: address.kind() };
}

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
  const ranges = trusted
    .filter((range) => ipaddr.isValid(range.ipAddress))
    .map((range) => {
      const network = ipaddr.process(range.ipAddress);
      return { network, bits: range.prefix ?? (network.kind() === "ipv4" ? 32 : 128) };
    });
  return (callerIp) => {
    if (!ipaddr.isValid(callerIp)) return false;
    // A dual-stack socket reports IPv4 clients as ::ffff:a.b.c.d; match them as IPv4.
    const caller = ipaddr.process(callerIp);
    return ranges.some((r) => r.network.kind() === caller.kind() && caller.match(r.network, r.bits));
  };
}

/** Whether a caller address (as Fastify reports it, possibly IPv4-mapped IPv6) is in any range. */
export function isIpTrusted(callerIp: string, trusted: readonly StoredTrustedIp[]): boolean {
  return compileMatcher(trusted)(callerIp);
}
