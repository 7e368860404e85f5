import type { StreamHeader } from "@keyhold/contract";
import { OutboundInvalidRequestError, OutboundUnreachableError, outboundRequest } from "../lib/outbound-http.ts";

/** What came of one POST to a stream's receiver. */
export interface ReceiverOutcome {
  /** The receiver answered 2xx. */
  ok: boolean;
  /** Its status, or null when nothing answered. */
  status: number | null;
  /**
   * Why it failed, in words fit for the stream's state and the caller: the transport error or the
   * status. Never the headers (they carry the receiver's credentials) nor the receiver's body.
   */
  error: string | null;
}

/** Longest wait for a receiver's answer; delivery shortens it to fit inside its lease. */
export const RECEIVER_TIMEOUT_MS = 10_000;

/**
 * POSTs `body` as JSON to a stream's URL with its configured headers (after ours, so they may
 * replace the user agent; never the content type). Redirects are not followed: a 3xx is a failure.
 */
export async function postToReceiver(
  url: string,
  headers: readonly StreamHeader[],
  body: unknown,
  timeoutMs = RECEIVER_TIMEOUT_MS,
): Promise<ReceiverOutcome> {
  const sent: Record<string, string> = { accept: "application/json", "user-agent": "keyhold-audit-stream" };
  for (const { key, value } of headers) sent[key.toLowerCase()] = value;
  sent["content-type"] = "application/json";
  try {
    const response = await outboundRequest({
      url,
      method: "POST",
      headers: sent,
      body: JSON.stringify(body),
      timeoutMs,
    });
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status, error: null };
    return { ok: false, status: response.status, error: `The receiver answered ${response.status}` };
  } catch (error) {
    if (error instanceof OutboundUnreachableError || error instanceof OutboundInvalidRequestError) {
      const cause = error.cause instanceof Error ? error.cause.message : error.message;
      return { ok: false, status: null, error: cause };
    }
    throw error;
  }
}
