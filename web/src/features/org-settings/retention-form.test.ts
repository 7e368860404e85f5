import { AuditLogsRetentionBodySchema } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import {
  describeDays,
  RETENTION_MAX_DAYS,
  RETENTION_MIN_DAYS,
  RetentionFormSchema,
  toRetentionFormValues,
} from "./retention-form";

describe("the retention form", () => {
  it("reads typed days as a number", () => {
    expect(RetentionFormSchema.parse({ days: " 30 " })).toEqual({ days: 30 });
    expect(RetentionFormSchema.parse(toRetentionFormValues(90))).toEqual({ days: 90 });
  });

  it("refuses what the service would refuse, with a sentence", () => {
    const message = (days: string) => RetentionFormSchema.safeParse({ days }).error?.issues[0]?.message;
    expect(message("0")).toBe("Keep events for at least 1 day");
    expect(message("3651")).toBe("Keep events for at most 3,650 days (ten years)");
    expect(message("1.5")).toBe("Enter a whole number of days");
    expect(message("")).toBe("Enter a whole number of days");
  });

  it("has the contract's bounds", () => {
    const body = AuditLogsRetentionBodySchema;
    expect(body.safeParse({ auditLogsRetentionDays: RETENTION_MIN_DAYS }).success).toBe(true);
    expect(body.safeParse({ auditLogsRetentionDays: RETENTION_MIN_DAYS - 1 }).success).toBe(false);
    expect(body.safeParse({ auditLogsRetentionDays: RETENTION_MAX_DAYS }).success).toBe(true);
    expect(body.safeParse({ auditLogsRetentionDays: RETENTION_MAX_DAYS + 1 }).success).toBe(false);
  });

  it("names days in words", () => {
    expect(describeDays(1)).toBe("1 day");
    expect(describeDays(90)).toBe("90 days");
  });
});
