import { z } from "zod";

/** The bounds the service accepts (the contract's AuditLogsRetentionBodySchema). */
export const RETENTION_MIN_DAYS = 1;
export const RETENTION_MAX_DAYS = 3650;

/** The days field as typed (text), checked against the contract's bounds. */
export const RetentionFormSchema = z.object({
  days: z
    .string()
    .trim()
    .regex(/^\d+$/, "Enter a whole number of days")
    .transform(Number)
    .pipe(
      z
        .number()
        .min(RETENTION_MIN_DAYS, "Keep events for at least 1 day")
        .max(RETENTION_MAX_DAYS, "Keep events for at most 3,650 days (ten years)"),
    ),
});
export type RetentionFormInput = z.input<typeof RetentionFormSchema>;
export type RetentionFormValues = z.output<typeof RetentionFormSchema>;

export const toRetentionFormValues = (days: number): RetentionFormInput => ({ days: String(days) });

/** "1 day", "90 days". */
export function describeDays(days: number): string {
  return days === 1 ? "1 day" : `${days.toLocaleString()} days`;
}
