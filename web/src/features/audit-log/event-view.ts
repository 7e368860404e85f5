import type { AuditLog } from "@keyhold/contract";

const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

export interface ActorView {
  type: string;
  /** The identity's or user's id. */
  id: string | undefined;
  name: string | undefined;
  /** A user's e-mail, or the e-mail an OIDC login mapped into the token's claims. */
  email: string | undefined;
  authMethod: string | undefined;
  /** Claims an OIDC login mapped onto the token (`oidc.claims`), as `key: value` text. */
  claims: [string, string][];
}

/** Who caused an event, from the actor metadata of either server generation. */
export function actorOf(event: AuditLog): ActorView {
  const meta = event.actor.metadata;
  const claims = record(record(meta.oidc)?.claims) ?? {};
  const claimList = Object.entries(claims).map(([key, value]): [string, string] => [
    key,
    typeof value === "string" ? value : JSON.stringify(value),
  ]);
  return {
    type: event.actor.type,
    id: str(meta.identityId) ?? str(meta.userId),
    name: str(meta.name) ?? str(meta.username) ?? str(meta.email),
    email: str(meta.email) ?? str(claims.email),
    authMethod: str(meta.authMethod),
    claims: claimList,
  };
}

export interface PlaceView {
  environment: string | undefined;
  secretPath: string | undefined;
  secretKey: string | undefined;
}

/** Where in a project an event happened, as its metadata says. */
export function placeOf(event: AuditLog): PlaceView {
  const meta = event.event.metadata;
  return {
    environment: str(meta.environment),
    secretPath: str(meta.secretPath),
    secretKey: str(meta.secretKey) ?? str(meta.secretName),
  };
}

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto", style: "short" });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

/** "5 min. ago", "yesterday": how long before `now` an ISO time was. */
export function timeAgo(iso: string, now: number): string {
  const diff = Date.parse(iso) - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === "second") {
      if (unit === "second" && Math.abs(diff) < 10_000) return "just now";
      return relative.format(Math.round(diff / ms), unit);
    }
  }
  return "just now";
}

const exact = new Intl.DateTimeFormat(undefined, {
  dateStyle: "medium",
  timeStyle: "medium",
});

/** The full local date and time, with the UTC instant for reference. */
export function exactTime(iso: string): string {
  return `${exact.format(new Date(iso))} (${iso})`;
}
