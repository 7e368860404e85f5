import ipaddr from "ipaddr.js";

/**
 * Trusted IP entries as the console edits them: one IPv4/IPv6 address or CIDR block per row,
 * checked and written in one canonical form so that duplicates are seen for what they are.
 * The rules match the service's (four-part decimal IPv4 only; IPv4-mapped IPv6 becomes IPv4).
 */
export type TrustedIpParse = { ok: true; value: string } | { ok: false; message: string };

const INVALID = "Enter an IPv4 or IPv6 address, or a CIDR block such as 10.0.0.0/8";

export const ALL_IPV4 = "0.0.0.0/0";
export const ALL_IPV6 = "::/0";

export function parseTrustedIp(entry: string): TrustedIpParse {
  const text = entry.trim();
  if (text === "") return { ok: false, message: "Enter an address or CIDR block, or remove the row" };
  if (text.includes("/")) {
    if (!ipaddr.IPv4.isValidCIDRFourPartDecimal(text) && !ipaddr.IPv6.isValidCIDR(text)) {
      return { ok: false, message: INVALID };
    }
    const [address, prefix] = ipaddr.parseCIDR(text);
    if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
      if (prefix < 96) return { ok: false, message: "An IPv4-mapped block needs a prefix of at least 96" };
      return { ok: true, value: `${(address as ipaddr.IPv6).toIPv4Address().toString()}/${prefix - 96}` };
    }
    return { ok: true, value: `${address.toString()}/${prefix}` };
  }
  if (!ipaddr.IPv4.isValidFourPartDecimal(text) && !ipaddr.IPv6.isValid(text)) return { ok: false, message: INVALID };
  return { ok: true, value: ipaddr.process(text).toString() };
}

export interface TrustedIpRowCheck {
  /** The canonical form, when the entry is valid. */
  value?: string;
  error?: string;
}

export interface TrustedIpListCheck {
  rows: TrustedIpRowCheck[];
  /** Both 0.0.0.0/0 and ::/0 are present: every caller passes. */
  allowsEverything: boolean;
  /** Exactly one of them is present: every caller of that family passes. */
  allowsFamily?: "IPv4" | "IPv6" | undefined;
}

/** Checks every row; a repeat of an earlier row is an error on the repeat ("Same as row 1"). */
export function checkTrustedIps(entries: readonly string[]): TrustedIpListCheck {
  const firstRow = new Map<string, number>();
  const rows = entries.map((entry, index): TrustedIpRowCheck => {
    const parsed = parseTrustedIp(entry);
    if (!parsed.ok) return { error: parsed.message };
    const earlier = firstRow.get(parsed.value);
    if (earlier !== undefined) return { value: parsed.value, error: `Same range as row ${earlier + 1}` };
    firstRow.set(parsed.value, index);
    return { value: parsed.value };
  });
  const v4 = firstRow.has(ALL_IPV4);
  const v6 = firstRow.has(ALL_IPV6);
  return {
    rows,
    allowsEverything: v4 && v6,
    allowsFamily: v4 === v6 ? undefined : v4 ? "IPv4" : "IPv6",
  };
}

/** The record's stored form ({ipAddress: "10.0.0.0", prefix: 8}) as the editor writes it. */
export function trustedIpText(record: { ipAddress: string; prefix?: number | null | undefined }): string {
  return record.prefix === undefined || record.prefix === null || record.ipAddress.includes("/")
    ? record.ipAddress
    : `${record.ipAddress}/${record.prefix}`;
}
