import ms from "ms";
import { z } from "zod";

/**
 * Temporary access, as Infisical defines it for membership roles and additional privileges:
 * a range such as "1h" or "7d" (read by the `ms` library, as the server reads it) counted from
 * a start time; the server computes end = start + range, and the grant counts only while
 * now < end. A start in the future does not delay it.
 */

export const RANGE_PRESETS = ["15m", "1h", "4h", "1d", "7d", "30d"] as const;

/** Milliseconds in a range, or undefined when the server would refuse it. */
export function rangeMs(range: string): number | undefined {
  const text = range.trim();
  if (text === "") return undefined;
  let value: number | undefined;
  try {
    value = ms(text as ms.StringValue) as number | undefined;
  } catch {
    return undefined;
  }
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The start and duration of a grant, as a form edits it (spread into each form's object). */
export const temporaryAccessShape = {
  isTemporary: z.boolean(),
  temporaryRange: z.string(),
  /** "now" is taken at the moment the form is sent. */
  startMode: z.enum(["now", "at"]),
  /** A `datetime-local` value (the browser's time zone), used when startMode is "at". */
  startAt: z.string(),
};

/** The checks of a temporary grant, for the `superRefine` of the object that holds the shape. */
export function refineTemporaryAccess(value: TemporaryAccess, ctx: z.RefinementCtx): void {
  if (!value.isTemporary) return;
  if (value.temporaryRange.trim() === "") {
    ctx.addIssue({ code: "custom", path: ["temporaryRange"], message: "Enter how long access lasts, e.g. 1h" });
  } else if (rangeMs(value.temporaryRange) === undefined) {
    ctx.addIssue({ code: "custom", path: ["temporaryRange"], message: "Use a duration such as 30m, 1h, 1d or 7d" });
  }
  if (value.startMode === "at" && parseLocalDateTime(value.startAt) === undefined) {
    ctx.addIssue({ code: "custom", path: ["startAt"], message: "Choose a start date and time" });
  }
}

export const TemporaryAccessSchema = z.object(temporaryAccessShape).superRefine(refineTemporaryAccess);
export type TemporaryAccess = z.infer<z.ZodObject<typeof temporaryAccessShape>>;

export const PERMANENT: TemporaryAccess = { isTemporary: false, temporaryRange: "1h", startMode: "now", startAt: "" };

/** The wire's temporary fields, as membership roles and privileges carry them. */
export type TemporaryWire =
  | { isTemporary: false }
  | { isTemporary: true; temporaryMode: "relative"; temporaryRange: string; temporaryAccessStartTime: string };

/** "2026-11-23T21:05" in the browser's time zone → Date; undefined when not a date. */
export function parseLocalDateTime(value: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A Date as a `datetime-local` value in the browser's time zone, to the second. */
export function toLocalDateTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

function startOf(value: TemporaryAccess, now: Date): Date {
  return value.startMode === "at" ? (parseLocalDateTime(value.startAt) ?? now) : now;
}

/** The body fields for a validated value; "now" is `now`. */
export function toTemporaryWire(value: TemporaryAccess, now: Date = new Date()): TemporaryWire {
  if (!value.isTemporary) return { isTemporary: false };
  return {
    isTemporary: true,
    temporaryMode: "relative",
    temporaryRange: value.temporaryRange.trim(),
    temporaryAccessStartTime: startOf(value, now).toISOString(),
  };
}

/** When access would end if the form were sent at `now`; undefined for permanent or invalid input. */
export function previewEnd(value: TemporaryAccess, now: Date = new Date()): Date | undefined {
  if (!value.isTemporary) return undefined;
  const range = rangeMs(value.temporaryRange);
  if (range === undefined) return undefined;
  if (value.startMode === "at" && parseLocalDateTime(value.startAt) === undefined) return undefined;
  return new Date(startOf(value, now).getTime() + range);
}

interface StoredTemporary {
  isTemporary: boolean;
  temporaryRange?: string | null | undefined;
  temporaryAccessStartTime?: string | null | undefined;
}

/**
 * Form values for a stored grant. A temporary one keeps its recorded start, so saving it
 * unchanged keeps the same end time rather than restarting the clock.
 */
export function fromStored(stored: StoredTemporary): TemporaryAccess {
  if (!stored.isTemporary) return { ...PERMANENT };
  const start = stored.temporaryAccessStartTime ? new Date(stored.temporaryAccessStartTime) : undefined;
  return {
    isTemporary: true,
    temporaryRange: stored.temporaryRange ?? "",
    startMode: start ? "at" : "now",
    startAt: start ? toLocalDateTime(start) : "",
  };
}
