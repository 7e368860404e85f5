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
