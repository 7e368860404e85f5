import ipaddr from "ipaddr.js";

/*
 * Trusted IP entries as the service stores and matches them and as the console edits them: one
 * IPv4/IPv6 address or CIDR block each. IPv4 must be four-part decimal (ipaddr.js would otherwise
 * accept forms like "10" or "0x0a.1"); an IPv4-mapped IPv6 block stands for the IPv4 block it covers.
 */

export interface TrustedIpEntry {
  ipAddress: string;
  type: "ipv4" | "ipv6";
  /** Absent for a single address. */
  prefix?: number;
}

/** The stored form of an entry (`{ipAddress: "10.0.0.0", type: "ipv4", prefix: 8}`), or undefined when it is not valid. */
export function parseTrustedIp(entry: string): TrustedIpEntry | undefined {
  const text = entry.trim();
  if (text.includes("/")) {
    if (!ipaddr.IPv4.isValidCIDRFourPartDecimal(text) && !ipaddr.IPv6.isValidCIDR(text)) return undefined;
    const [address, prefix] = ipaddr.parseCIDR(text);
    if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
      if (prefix < 96) return undefined;
      return { ipAddress: (address as ipaddr.IPv6).toIPv4Address().toString(), type: "ipv4", prefix: prefix - 96 };
    }
    return { ipAddress: address.toString(), type: address.kind(), prefix };
  }
  if (!ipaddr.IPv4.isValidFourPartDecimal(text) && !ipaddr.IPv6.isValid(text)) return undefined;
  const address = ipaddr.process(text);
  return { ipAddress: address.toString(), type: address.kind() };
}

const familyBits = (entry: TrustedIpEntry) => (entry.type === "ipv4" ? 32 : 128);

/** The entry's prefix length, a single address counting as a /32 or /128 block. */
export function blockPrefix(entry: TrustedIpEntry): number {
  return entry.prefix ?? familyBits(entry);
}

/**
 * The entry with its host bits cleared (`203.0.113.7/24` → `203.0.113.0/24`): the block a caller
 * is matched against either way, written as the block's own address.
 */
export function networkOf(entry: TrustedIpEntry): TrustedIpEntry {
  if (entry.prefix === undefined) return entry;
  const address = ipaddr.parse(entry.ipAddress);
  const network =
    address.kind() === "ipv4"
      ? ipaddr.IPv4.networkAddressFromCIDR(`${entry.ipAddress}/${entry.prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${entry.ipAddress}/${entry.prefix}`);
  return { ...entry, ipAddress: network.toString() };
}

/** `10.0.0.0/8`, or the bare address for a single one. */
export function trustedIpEntryText(entry: TrustedIpEntry): string {
  return entry.prefix === undefined ? entry.ipAddress : `${entry.ipAddress}/${entry.prefix}`;
}

/** Whether every address of `inner` is also in `outer` (same family only; a block covers itself). */
export function blockCovers(outer: TrustedIpEntry, inner: TrustedIpEntry): boolean {
  if (outer.type !== inner.type || blockPrefix(outer) > blockPrefix(inner)) return false;
  return ipaddr.parse(inner.ipAddress).match(ipaddr.parse(outer.ipAddress), blockPrefix(outer));
}

/** Whether the entry is a whole address family: 0.0.0.0/0 or ::/0. */
export function isWholeFamily(entry: TrustedIpEntry): boolean {
  return entry.prefix === 0;
}

/**
 * One caller address, as the trusted-IP check reads it: four-part decimal IPv4 or IPv6, an
 * IPv4-mapped IPv6 address standing for its IPv4 address. Undefined for anything else (a block too).
 */
export function callerAddressOf(text: string): string | undefined {
  const parsed = parseTrustedIp(text);
  return parsed && parsed.prefix === undefined ? parsed.ipAddress : undefined;
}

/** A stored entry, as the service keeps it and the console edits it; an unreadable one never matches. */
export interface TrustedIpRange {
  ipAddress: string;
  prefix?: number | null | undefined;
}

/**
 * The rule that decides whether a caller may use a credential: a matcher for a list of ranges,
 * parsed once, that answers the index of the first range holding the caller's address, or -1 when
 * none does (or the address is not one). Ranges may be undefined (a row still being typed); they keep
 * their places, so the index is the entry's own.
 */
export function trustedIpMatcher(ranges: readonly (TrustedIpRange | undefined)[]): (callerIp: string) => number {
  const compiled = ranges.map((range) => {
    if (!range || !ipaddr.isValid(range.ipAddress)) return undefined;
    const network = ipaddr.process(range.ipAddress);
    return { network, bits: range.prefix ?? (network.kind() === "ipv4" ? 32 : 128) };
  });
  return (callerIp) => {
    if (!ipaddr.isValid(callerIp)) return -1;
    // A dual-stack socket reports IPv4 clients as ::ffff:a.b.c.d; they are matched as IPv4.
    const caller = ipaddr.process(callerIp);
    return compiled.findIndex(
      (r) => r !== undefined && r.network.kind() === caller.kind() && caller.match(r.network, r.bits),
    );
  };
}
