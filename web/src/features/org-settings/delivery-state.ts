import type { AuditLogStream, AuditLogStreamStatus } from "@keyhold/contract";

export type DeliveryTone = "success" | "warning" | "destructive" | "neutral";

/** A stream's delivery state in words, for its row. */
export interface DeliveryView {
  tone: DeliveryTone;
  label: string;
  /** Events waiting, in words ("Nothing waiting", "3 events waiting"). */
  backlog: string;
}

/** How the receiver gets events: one request per event, or batches as a JSON array. */
export function describeMode(mode: AuditLogStream["streamMode"]): string {
  return mode === "batch" ? "Batches (JSON array)" : "One request per event";
}

export function describeBacklog(backlog: number): string {
  if (backlog === 0) return "Nothing waiting";
  return backlog === 1 ? "1 event waiting" : `${backlog.toLocaleString()} events waiting`;
}

/**
 * Failing now: the last error came after the last success (or there was never one). Delivered:
 * a success and no error since. Waiting: nothing attempted yet.
 */
export function deliveryView(status: AuditLogStreamStatus): DeliveryView {
  const backlog = describeBacklog(status.backlog);
  const errorAt = status.lastErrorAt ? Date.parse(status.lastErrorAt) : undefined;
  const successAt = status.lastSuccessAt ? Date.parse(status.lastSuccessAt) : undefined;
  if (errorAt !== undefined && (successAt === undefined || errorAt > successAt)) {
    const attempts = status.failures > 1 ? ` (${status.failures} attempts)` : "";
    return { tone: "destructive", label: `Failing${attempts}`, backlog };
  }
  if (successAt !== undefined)
    return { tone: status.backlog > 0 ? "warning" : "success", label: "Delivering", backlog };
  return { tone: "neutral", label: "No delivery yet", backlog };
}
