import type { AuditLogStreamStatus } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import { describeBacklog, describeMode, deliveryView } from "./delivery-state";

const base: AuditLogStreamStatus = {
  id: "s1",
  provider: "custom",
  url: "https://logs.example.com/in",
  streamMode: "batch",
  backlog: 0,
  lastDeliveredSeq: 0,
  lastSuccessAt: null,
  lastError: null,
  lastErrorAt: null,
  failures: 0,
  nextAttemptAt: null,
};

describe("a stream's delivery state", () => {
  it("has not delivered before its first attempt", () => {
    expect(deliveryView(base)).toEqual({ tone: "neutral", label: "No delivery yet", backlog: "Nothing waiting" });
  });

  it("is delivering after a success with no error since", () => {
    const status = { ...base, lastSuccessAt: "2026-11-28T10:00:00.000Z", lastDeliveredSeq: 12 };
    expect(deliveryView(status).tone).toBe("success");
    expect(deliveryView({ ...status, backlog: 4 })).toEqual({
      tone: "warning",
      label: "Delivering",
      backlog: "4 events waiting",
    });
  });

  it("is failing when the last error is newer than the last success", () => {
    const status = {
      ...base,
      lastSuccessAt: "2026-11-28T10:00:00.000Z",
      lastError: "HTTP 500",
      lastErrorAt: "2026-11-28T10:05:00.000Z",
      failures: 3,
      backlog: 1,
    };
    expect(deliveryView(status)).toEqual({
      tone: "destructive",
      label: "Failing (3 attempts)",
      backlog: "1 event waiting",
    });
    // A success after the error: delivering again, the error stays only as history.
    expect(deliveryView({ ...status, lastSuccessAt: "2026-11-28T10:06:00.000Z", failures: 0 }).label).toBe(
      "Delivering",
    );
  });

  it("names modes and backlogs in words", () => {
    expect(describeMode("batch")).toBe("Batches (JSON array)");
    expect(describeMode("single")).toBe("One request per event");
    expect(describeBacklog(1234)).toBe(`${(1234).toLocaleString()} events waiting`);
  });
});
