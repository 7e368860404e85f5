/** Now, in the form every timestamp column is written in. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** A stored timestamp (Date from PostgreSQL, text from SQLite) as an ISO 8601 string. */
export function toIso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

export function toIsoOrNull(value: Date | string | null): string | null {
  return value === null ? null : toIso(value);
}

export function toMillis(value: Date | string): number {
  return value instanceof Date ? value.getTime() : Date.parse(value);
}
