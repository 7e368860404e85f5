import type { AuthMethodConfig, AuthMethodDescriptor, SummarySpec } from "./descriptor";
import { fieldsOf } from "./descriptor";
import { ALL_IPV4, ALL_IPV6, checkTrustedIps, trustedIpText } from "./trusted-ips";
import { describeTtl } from "./ttl";

/** One key setting as the section shows it, and whether it restricts nothing (shown as a warning). */
export interface SummaryItem {
  text: string;
  unrestricted: boolean;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One key setting of an attached method, as the section lists it. */
export function summaryItem(
  descriptor: AuthMethodDescriptor,
  spec: SummarySpec,
  config: AuthMethodConfig,
): SummaryItem {
  const field = fieldsOf(descriptor).find((f) => f.name === spec.field);
  const value = config.record[spec.field];
  const plain = (text: string): SummaryItem => ({ text, unrestricted: false });
  const open = field?.unrestricted ? { text: capitalised(field.unrestricted), unrestricted: true } : undefined;
  switch (field?.kind) {
    case "secret":
      return plain(config.secretsSet.includes(spec.field) ? "Set (never shown)" : "Not set");
    case "ttl":
      return plain(typeof value === "number" ? describeTtl(value) : "—");
    case "number":
      return plain(value === 0 && field.emptyMeans ? field.emptyMeans : String(value ?? "—"));
    case "trusted-ips": {
      const ranges = Array.isArray(value) ? value.map(trustedIpText) : [];
      const check = checkTrustedIps(ranges);
      if (check.allowsEverything && open) return open;
      const named = ranges.map((range) =>
        range === ALL_IPV4 ? "Any IPv4 address" : range === ALL_IPV6 ? "Any IPv6 address" : range,
      );
      return { text: named.join(", ") || "—", unrestricted: check.allowsFamily !== undefined };
    }
    case "pairs": {
      const pairs = Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => `${k}=${String(v)}`);
      return pairs.length > 0 ? plain(pairs.join(", ")) : (open ?? plain(field.emptyMeans ?? "—"));
    }
    default:
      if (typeof value === "boolean") return plain(value ? "On" : "Off");
      if (value === "" || value === null || value === undefined) return open ?? plain(field?.emptyMeans ?? "—");
      return plain(String(value));
  }
}

/** The text of one key setting. */
export function summaryValue(descriptor: AuthMethodDescriptor, spec: SummarySpec, config: AuthMethodConfig): string {
  return summaryItem(descriptor, spec, config).text;
}
