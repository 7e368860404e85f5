import {
  blockCovers,
  callerAddressOf,
  networkOf,
  parseTrustedIp as parseEntry,
  trustedIpEntryText,
  trustedIpMatcher,
} from "@keyhold/contract";

/**
 * Trusted IP entries as the console edits them: one IPv4/IPv6 address or CIDR block per row, read
 * by the contract's rule (the service's) and written as the block it stands for, host bits cleared,
 * so that repeats and blocks inside other blocks are seen for what they are.
 */
export type TrustedIpParse =
  | {
      ok: true;
      /** The canonical form, as it is saved. */
      value: string;
      /** The entry had host bits set (`203.0.113.7/24`); `value` is its block (`203.0.113.0/24`). */
      hostBitsCleared: boolean;
    }
  | { ok: false; message: string };

const INVALID = "Enter an IPv4 or IPv6 address, or a CIDR block such as 10.0.0.0/8";

export const ALL_IPV4 = "0.0.0.0/0";
export const ALL_IPV6 = "::/0";

export function parseTrustedIp(entry: string): TrustedIpParse {
  const text = entry.trim();
  if (text === "") return { ok: false, message: "Enter an address or CIDR block, or remove the row" };
  const parsed = parseEntry(text);
  if (!parsed) {
    const mapped = /^::ffff:[\d.]+\/\d+$/i.test(text);
    return { ok: false, message: mapped ? "An IPv4-mapped block needs a prefix of at least 96" : INVALID };
  }
  const network = networkOf(parsed);
  return {
    ok: true,
    value: trustedIpEntryText(network),
    hostBitsCleared: network.ipAddress !== parsed.ipAddress,
  };
}

export interface TrustedIpRowCheck {
  /** The canonical form, when the entry is valid. */
  value?: string;
  error?: string;
  /** The entry was written with host bits set; `value` is the block it is saved as. */
  hostBitsCleared?: boolean;
  /** The index of another row whose block holds every address of this one: this row adds nothing. */
  coveredBy?: number;
}

export interface TrustedIpListCheck {
  rows: TrustedIpRowCheck[];
  /** Both 0.0.0.0/0 and ::/0 are present: every caller passes. */
  allowsEverything: boolean;
  /** Exactly one of them is present: every caller of that family passes. */
  allowsFamily?: "IPv4" | "IPv6" | undefined;
}

/**
 * Checks every row: a repeat of an earlier row is an error on the repeat ("Same range as row 1");
 * a row inside another row's block is marked with that row.
 */
export function checkTrustedIps(entries: readonly string[]): TrustedIpListCheck {
  const firstRow = new Map<string, number>();
  const rows = entries.map((entry, index): TrustedIpRowCheck => {
    const parsed = parseTrustedIp(entry);
    if (!parsed.ok) return { error: parsed.message };
    const row: TrustedIpRowCheck = { value: parsed.value, ...(parsed.hostBitsCleared && { hostBitsCleared: true }) };
    const earlier = firstRow.get(parsed.value);
    if (earlier !== undefined) return { ...row, error: `Same range as row ${earlier + 1}` };
    firstRow.set(parsed.value, index);
    return row;
  });
  const blocks = rows.map((row) => (row.value && !row.error ? parseEntry(row.value) : undefined));
  blocks.forEach((inner, index) => {
    if (!inner) return;
    const outer = blocks.findIndex((block, at) => at !== index && block !== undefined && blockCovers(block, inner));
    const row = rows[index];
    if (outer >= 0 && row) row.coveredBy = outer;
  });
  const v4 = firstRow.has(ALL_IPV4);
  const v6 = firstRow.has(ALL_IPV6);
  return {
    rows,
    allowsEverything: v4 && v6,
    allowsFamily: v4 === v6 ? undefined : v4 ? "IPv4" : "IPv6",
  };
}

/** What a list admits when it restricts nothing of a family: "any address", "any IPv4 address". */
export function trustedIpsAdmit(check: TrustedIpListCheck): string | undefined {
  if (check.allowsEverything) return "any address";
  return check.allowsFamily ? `any ${check.allowsFamily} address` : undefined;
}

/** The record's stored form ({ipAddress: "10.0.0.0", prefix: 8}) as the editor writes it. */
export function trustedIpText(record: { ipAddress: string; prefix?: number | null | undefined }): string {
  return record.prefix === undefined || record.prefix === null || record.ipAddress.includes("/")
    ? record.ipAddress
    : `${record.ipAddress}/${record.prefix}`;
}

export type AddressVerdict =
  | {
      passes: true /** The first row whose block holds the address. */;
      row: number /** That row as it is saved. */;
      entry: string;
    }
  | { passes: false };

/**
 * Whether a caller at `address` (already read by `callerAddressOf`) would be admitted by the list as
 * typed, by the contract's rule, the one the service applies; rows that do not parse match nothing.
 */
export function wouldPass(address: string, entries: readonly string[]): AddressVerdict {
  const ranges = entries.map((entry) => parseEntry(entry));
  const row = trustedIpMatcher(ranges)(address);
  const range = ranges[row];
  return range ? { passes: true, row, entry: trustedIpEntryText(networkOf(range)) } : { passes: false };
}

/** The address typed into "Would this address pass?", or why it is not one. */
export function readTestAddress(text: string): { ok: true; address: string } | { ok: false; message?: string } {
  if (text.trim() === "") return { ok: false };
  const address = callerAddressOf(text);
  if (address) return { ok: true, address };
  return {
    ok: false,
    message: text.includes("/")
      ? "Enter one address, not a block"
      : "Enter an IPv4 or IPv6 address, such as 203.0.113.7",
  };
}
