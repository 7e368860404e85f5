/**
 * A comma-separated allow-list setting (namespaces, service account names, audiences, account ids,
 * principal ARNs) as its entries, blanks dropped. A sign-in checks a setting only when this has
 * entries: an empty list restricts nothing.
 */
export function commaList(value: unknown): string[] {
  return typeof value === "string"
    ? value
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry.length > 0)
    : [];
}
