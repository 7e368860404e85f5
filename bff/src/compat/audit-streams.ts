import { type EndpointId, errorNames, MASKED_HEADER_VALUE } from "@keyhold/contract";
import { HttpError } from "../errors.ts";
import type { OlderRoute } from "./routes.ts";

/**
 * Audit log streams on servers of October 2024 (recorded: 2024-10-more 002–008, 103–112): one
 * route without a provider (`/api/v1/audit-log-streams[/{id}]`), a body of `{url, headers}`,
 * records of `{id, url, createdAt, updatedAt}` (brought to the current shape by the record
 * rules), and a read that answers header values in clear. The console speaks the provider
 * routes of current servers; on such a server the BFF takes these instead.
 */

type Header = { key: string; value: string };
type StreamBody = { credentials?: { url: string; headers?: Header[] } };
type LegacyRecord = { url?: unknown; headers?: unknown };

const headersOf = (body: unknown): Header[] => (body as StreamBody).credentials?.headers ?? [];
const keepsSome = (body: unknown) =>
  (body as StreamBody).credentials === undefined || headersOf(body).some((h) => h.value === MASKED_HEADER_VALUE);

/** The stored record's headers, from the older read (`{auditLogStream: {headers}}`). */
function storedHeaders(current: unknown): Header[] {
  const record = (current as { auditLogStream?: LegacyRecord } | undefined)?.auditLogStream;
  return Array.isArray(record?.headers) ? (record.headers as Header[]) : [];
}

/**
 * A masked value sent back means "keep the stored one" (as current servers read it); this server
 * would store the mask itself, so the stored value, read server-side, is sent in its place. A
 * header of that name the server does not hold is refused as a current server refuses it.
 */
function legacyUpdateBody(body: unknown, current: unknown): unknown {
  const credentials = (body as StreamBody).credentials;
  const stored = storedHeaders(current);
  if (!credentials) {
    // An update without credentials: this server would drop the headers, so they are sent again.
    const record = (current as { auditLogStream?: LegacyRecord }).auditLogStream;
    return { url: record?.url, headers: stored };
  }
  const headers = (credentials.headers ?? []).map((header) => {
    if (header.value !== MASKED_HEADER_VALUE) return header;
    const kept = stored.find((s) => s.key === header.key);
    if (!kept) {
      throw new HttpError(400, errorNames.badRequest, `The stream has no stored value for the header '${header.key}'.`);
    }
    return { key: header.key, value: kept.value };
  });
  return { url: credentials.url, headers };
}

const byId = "/api/v1/audit-log-streams/{streamId}";

export const legacyStreamRoutes: Partial<Record<EndpointId, OlderRoute>> = {
  "auditLogStreams.create": {
    path: "/api/v1/audit-log-streams",
    body: (body) => ({ url: (body as StreamBody).credentials?.url, headers: headersOf(body) }),
  },
  "auditLogStreams.get": { path: byId },
  "auditLogStreams.update": {
    path: byId,
    body: legacyUpdateBody,
    current: { via: "auditLogStreams.getLegacy", needed: keepsSome },
  },
  "auditLogStreams.delete": { path: byId },
};

/** Header values as the browser gets them: the mask, never the value (2024 reads answer them in clear). */
export function maskHeaderValues(headers: unknown): unknown {
  if (!Array.isArray(headers)) return headers;
  return headers.map((header: unknown) =>
    typeof header === "object" && header !== null ? { ...header, value: MASKED_HEADER_VALUE } : header,
  );
}

/** A 2024 record's credentials in the current shape: its URL and header names, values masked. */
export function credentialsOfLegacy(record: Record<string, unknown>): unknown {
  return { url: record.url, headers: maskHeaderValues(record.headers ?? []) };
}
