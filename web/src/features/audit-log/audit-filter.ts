import { AUDIT_ACTOR_TYPES, type AuditActorType, USER_AGENT_TYPES, type UserAgentType } from "@keyhold/contract";
import { AUDIT_EVENT_TYPES } from "@keyhold/contract/audit-event-types";
import { AUDIT_PARAMS } from "@/config/audit-link";

/** How many events one request of the list asks for. */
export const AUDIT_PAGE_SIZE = 100;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The date windows offered as one click, newest events last `ms` before the window was pinned. */
export const DATE_PRESETS = {
  "1h": { label: "Last hour", ms: HOUR },
  "24h": { label: "Last 24 hours", ms: DAY },
  "7d": { label: "Last 7 days", ms: 7 * DAY },
  "30d": { label: "Last 30 days", ms: 30 * DAY },
} as const;
export type DatePreset = keyof typeof DATE_PRESETS;
export const DEFAULT_PRESET: DatePreset = "7d";

/** The longest window the list endpoints accept (Infisical: "Dates must be within 3 months"). */
export const MAX_WINDOW_DAYS = 90;

/**
 * What the audit log page shows, as kept in its URL (`?eventType=update-secret&range=24h`), so a
 * filtered view is a link. Absent fields filter nothing.
 */
export interface AuditFilter {
  /** A preset window ending when the list was pinned, or the `from`–`to` of a custom one. */
  range: DatePreset | "custom";
  /** ISO date-times of a custom window; `to` absent means "until the list was pinned". */
  from?: string | undefined;
  to?: string | undefined;
  /** An identity's id: events it caused. */
  actor?: string | undefined;
  actorType?: AuditActorType | undefined;
  /** Event type names, any of which matches. */
  eventTypes: readonly string[];
  projectId?: string | undefined;
  /** These three narrow a project's events; they need `projectId`. */
  environment?: string | undefined;
  secretPath?: string | undefined;
  secretKey?: string | undefined;
  userAgentType?: UserAgentType | undefined;
  /** Metadata equalities, `key=value` pairs: `identityId=…` for events about an identity. */
  eventMetadata: readonly MetadataMatch[];
}

export interface MetadataMatch {
  key: string;
  value: string;
}

export const EMPTY_FILTER: AuditFilter = { range: DEFAULT_PRESET, eventTypes: [], eventMetadata: [] };

/** The URL's names for each filter; `event` is the open event's id (the drawer). */
export const PARAMS = AUDIT_PARAMS;

const isPreset = (value: string | null): value is DatePreset => value !== null && Object.hasOwn(DATE_PRESETS, value);

function isoOrUndefined(value: string | null): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

const text = (params: URLSearchParams, name: string) => params.get(name)?.trim() || undefined;

/** A value of a closed list, or undefined (the service would refuse any other with 422). */
function oneOf<T extends string>(list: readonly T[], value: string | undefined): T | undefined {
  return (list as readonly string[]).includes(value ?? "") ? (value as T) : undefined;
}

/** Reads `key=value,key2=value2`; pairs without a key are dropped. */
export function readMetadata(raw: string | null | undefined): MetadataMatch[] {
  if (!raw) return [];
  return raw.split(",").flatMap((pair) => {
    const at = pair.indexOf("=");
    const key = (at === -1 ? "" : pair.slice(0, at)).trim();
    return key ? [{ key, value: pair.slice(at + 1).trim() }] : [];
  });
}

export const writeMetadata = (matches: readonly MetadataMatch[]) =>
  matches.map(({ key, value }) => `${key}=${value}`).join(",");

/** The filter a URL asks for; what cannot be read is left out rather than refused. */
export function readAuditFilter(params: URLSearchParams): AuditFilter {
  const range = params.get(PARAMS.range);
  const from = isoOrUndefined(params.get(PARAMS.from));
  const custom = range === "custom" || (range === null && from !== undefined);
  const projectId = text(params, PARAMS.projectId);
  return {
    range: custom && from ? "custom" : isPreset(range) ? range : DEFAULT_PRESET,
    ...(custom && from && { from, to: isoOrUndefined(params.get(PARAMS.to)) }),
    actor: text(params, PARAMS.actor),
    actorType: oneOf(AUDIT_ACTOR_TYPES, text(params, PARAMS.actorType)),
    eventTypes: [
      ...new Set(
        (params.get(PARAMS.eventType) ?? "")
          .split(",")
          .map((type) => type.trim())
          .filter((type) => oneOf(AUDIT_EVENT_TYPES, type)),
      ),
    ],
    projectId,
    ...(projectId && {
      environment: text(params, PARAMS.environment),
      secretPath: text(params, PARAMS.secretPath),
      secretKey: text(params, PARAMS.secretKey),
    }),
    userAgentType: oneOf(USER_AGENT_TYPES, text(params, PARAMS.userAgentType)),
    eventMetadata: readMetadata(params.get(PARAMS.eventMetadata)),
  };
}

/** The URL's search params for a filter: defaults left out, unrelated params (the open event) kept. */
export function writeAuditFilter(params: URLSearchParams, filter: AuditFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  const put = (name: string, value: string | undefined) => {
    if (value) next.set(name, value);
    else next.delete(name);
  };
  put(PARAMS.range, filter.range === DEFAULT_PRESET ? undefined : filter.range);
  put(PARAMS.from, filter.range === "custom" ? filter.from : undefined);
  put(PARAMS.to, filter.range === "custom" ? filter.to : undefined);
  put(PARAMS.actor, filter.actor);
  put(PARAMS.actorType, filter.actorType);
  put(PARAMS.eventType, filter.eventTypes.join(","));
  put(PARAMS.projectId, filter.projectId);
  put(PARAMS.environment, filter.projectId ? filter.environment : undefined);
  put(PARAMS.secretPath, filter.projectId ? filter.secretPath : undefined);
  put(PARAMS.secretKey, filter.projectId ? filter.secretKey : undefined);
  put(PARAMS.userAgentType, filter.userAgentType);
  put(PARAMS.eventMetadata, writeMetadata(filter.eventMetadata));
  return next;
}

/** The filter's query string for a link to the page (`?…`, or "" for the default view). */
export function auditSearch(filter: Partial<AuditFilter>): string {
  const search = writeAuditFilter(new URLSearchParams(), { ...EMPTY_FILTER, ...filter }).toString();
  return search ? `?${search}` : "";
}

/** Whether any filter other than the date window is set. */
export function hasFilters(filter: AuditFilter): boolean {
  return (
    filter.actor !== undefined ||
    filter.actorType !== undefined ||
    filter.eventTypes.length > 0 ||
    filter.projectId !== undefined ||
    filter.userAgentType !== undefined ||
    filter.eventMetadata.length > 0
  );
}

/** The window the list reads, fixed once: events written later do not shift its offsets. */
export interface AuditWindow {
  startDate: string;
  endDate: string;
}

/** The filter's window, as of `pinnedAt` (ms): the end of a preset window, or of an open custom one. */
export function windowOf(filter: AuditFilter, pinnedAt: number): AuditWindow {
  if (filter.range === "custom" && filter.from) {
    return { startDate: filter.from, endDate: filter.to ?? new Date(pinnedAt).toISOString() };
  }
  const preset = DATE_PRESETS[filter.range === "custom" ? DEFAULT_PRESET : filter.range];
  return { startDate: new Date(pinnedAt - preset.ms).toISOString(), endDate: new Date(pinnedAt).toISOString() };
}

/** Why the service would refuse the window, in one sentence; undefined when it is fine. */
export function windowProblem(window: AuditWindow): string | undefined {
  const start = Date.parse(window.startDate);
  const end = Date.parse(window.endDate);
  if (end < start) return "The window ends before it starts: pick an end after the start.";
  if (end - start > MAX_WINDOW_DAYS * DAY) return `A window may span at most ${MAX_WINDOW_DAYS} days.`;
  return undefined;
}

/** The list endpoint's query for one page of the filtered events. */
export function toListQuery(filter: AuditFilter, window: AuditWindow, offset: number, limit = AUDIT_PAGE_SIZE) {
  return {
    startDate: window.startDate,
    endDate: window.endDate,
    offset,
    limit,
    ...(filter.projectId && {
      projectId: filter.projectId,
      ...(filter.environment && { environment: filter.environment }),
      ...(filter.secretPath && { secretPath: filter.secretPath }),
      ...(filter.secretKey && { secretKey: filter.secretKey }),
    }),
    // The actor picker picks identities: an actor id alone means an identity's.
    ...((filter.actorType || filter.actor) && { actorType: filter.actorType ?? ("identity" as const) }),
    ...(filter.actor && { actor: filter.actor }),
    ...(filter.eventTypes.length > 0 && { eventType: filter.eventTypes.join(",") }),
    ...(filter.userAgentType && { userAgentType: filter.userAgentType }),
    ...(filter.eventMetadata.length > 0 && { eventMetadata: writeMetadata(filter.eventMetadata) }),
  };
}
export type AuditListQuery = ReturnType<typeof toListQuery>;
