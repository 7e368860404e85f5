import type { AuthMethodConfig, AuthMethodDescriptor, SummarySpec } from "./descriptor";
import { fieldsOf } from "./descriptor";
import { ALL_IPV4, ALL_IPV6, trustedIpText } from "./trusted-ips";
import { describeTtl } from "./ttl";

/** One key setting of an attached method, as the section lists it. */
export function summaryValue(descriptor: AuthMethodDescriptor, spec: SummarySpec, config: AuthMethodConfig): string {
  const field = fieldsOf(descriptor).find((f) => f.name === spec.field);
  const value = config.record[spec.field];
  switch (field?.kind) {
    case "secret":
      return config.secretsSet.includes(spec.field) ? "Set (never shown)" : "Not set";
    case "ttl":
      return typeof value === "number" ? describeTtl(value) : "—";
    case "number":
      return value === 0 && field.emptyMeans ? field.emptyMeans : String(value ?? "—");
    case "trusted-ips": {
      const ranges = Array.isArray(value) ? value.map(trustedIpText) : [];
      if (ranges.includes(ALL_IPV4) && ranges.includes(ALL_IPV6)) return "Any address";
      return ranges.join(", ") || "—";
    }
    case "pairs": {
      const pairs = Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => `${k}=${String(v)}`);
      return pairs.join(", ") || (field.emptyMeans ?? "—");
    }
    default:
      if (typeof value === "boolean") return value ? "On" : "Off";
      if (value === "" || value === null || value === undefined) return field?.emptyMeans ?? "—";
      return String(value);
  }
}
