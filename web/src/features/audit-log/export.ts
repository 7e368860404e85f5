import { AUDIT_LOG_PAGE_MAX, type AuditLog } from "@keyhold/contract";
import Papa from "papaparse";
import { auditApi } from "./api";
import { type AuditFilter, type AuditWindow, toListQuery } from "./audit-filter";
import { actorOf } from "./event-view";

/** The most events one export holds; the page says so before it starts. */
export const EXPORT_CAP = 100_000;

export type ExportFormat = "csv" | "json";

/** The CSV's columns, in order: the event's fields, then its metadata as JSON text. */
export const CSV_COLUMNS = [
  "id",
  "createdAt",
  "eventType",
  "actorType",
  "actorId",
  "actorName",
  "actorEmail",
  "projectId",
  "projectName",
  "environment",
  "secretPath",
  "secretKey",
  "ipAddress",
  "userAgent",
  "userAgentType",
  "requestId",
  "expiresAt",
  "eventMetadata",
  "actorMetadata",
] as const;

const str = (value: unknown) => (typeof value === "string" ? value : "");

/** One event as a flat CSV row; nested metadata becomes JSON text columns. */
export function csvRow(event: AuditLog): Record<(typeof CSV_COLUMNS)[number], string> {
  const actor = actorOf(event);
  const meta = event.event.metadata;
  return {
    id: event.id,
    createdAt: event.createdAt,
    eventType: event.event.type,
    actorType: event.actor.type,
    actorId: actor.id ?? "",
    actorName: actor.name ?? "",
    actorEmail: actor.email ?? "",
    projectId: event.projectId ?? "",
    projectName: event.projectName ?? "",
    environment: str(meta.environment),
    secretPath: str(meta.secretPath),
    secretKey: str(meta.secretKey),
    ipAddress: event.ipAddress ?? "",
    userAgent: event.userAgent ?? "",
    userAgentType: event.userAgentType ?? "",
    requestId: event.requestId ?? "",
    expiresAt: event.expiresAt,
    eventMetadata: JSON.stringify(meta),
    actorMetadata: JSON.stringify(event.actor.metadata),
  };
}

/**
 * One page of events as a piece of the file. CSV cells that a spreadsheet would run as a
 * formula (=, +, -, @ first) are escaped: an event's metadata is text someone else chose.
 */
export function exportChunk(events: readonly AuditLog[], format: ExportFormat, first: boolean): string {
  if (format === "json") {
    const items = events.map((event) => JSON.stringify(event)).join(",\n");
    return `${first ? "[\n" : items ? ",\n" : ""}${items}`;
  }
  const csv = Papa.unparse(
    { fields: [...CSV_COLUMNS], data: events.map((event) => CSV_COLUMNS.map((column) => csvRow(event)[column])) },
    { header: first, escapeFormulae: true, newline: "\r\n" },
  );
  return first ? csv : csv ? `\r\n${csv}` : "";
}

export interface ExportProgress {
  events: number;
  /** Whether the cap cut the export short. */
  capped: boolean;
}

export interface ExportResult extends ExportProgress {
  blob: Blob;
}

/**
 * Reads the filtered events of the window page after page (the largest page the list allows)
 * and builds the file as it goes, up to `cap` events. `signal` cancels: the promise then rejects
 * with the abort, and nothing is downloaded.
 */
export async function exportEvents(options: {
  filter: AuditFilter;
  window: AuditWindow;
  format: ExportFormat;
  cap?: number;
  signal: AbortSignal;
  onProgress: (progress: ExportProgress) => void;
}): Promise<ExportResult> {
  const { filter, window, format, signal, onProgress } = options;
  const cap = options.cap ?? EXPORT_CAP;
  const parts: string[] = [];
  let events = 0;
  let capped = false;
  for (;;) {
    signal.throwIfAborted();
    const limit = Math.min(AUDIT_LOG_PAGE_MAX, cap - events);
    const page = await auditApi.list(toListQuery(filter, window, events, limit), signal);
    parts.push(exportChunk(page, format, events === 0));
    events += page.length;
    capped = events >= cap && page.length === limit;
    onProgress({ events, capped });
    if (page.length < limit || events >= cap) break;
  }
  if (format === "json") parts.push("\n]\n");
  else parts.push("\r\n");
  const type = format === "json" ? "application/json" : "text/csv";
  return { blob: new Blob(parts, { type }), events, capped };
}

/** Hands the file to the browser as a download; the object URL is revoked once the click has taken it. */
export function download(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** "audit-log-2026-11-28T1530Z.csv": when the window ended, so two exports of one view share a name. */
export function exportFileName(window: AuditWindow, format: ExportFormat): string {
  const stamp = window.endDate
    .slice(0, 16)
    .replaceAll(":", "")
    .replace(/-(\d\d)T/, "-$1T");
  return `audit-log-${stamp}Z.${format}`;
}
