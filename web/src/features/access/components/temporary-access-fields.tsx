import { useSyncExternalStore } from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { cn } from "@/lib/cn";
import { formatDateTime } from "@/lib/format";
import { clockNow, describeCountdown, subscribeClock } from "@/lib/countdown";
import {
  parseLocalDateTime,
  previewEnd,
  RANGE_PRESETS,
  type TemporaryAccess,
  toLocalDateTime,
} from "../temporary-access";

interface TemporaryAccessFieldsProps {
  idPrefix: string;
  /** What is being granted, for the switch's label: "role", "privilege". */
  noun: string;
  value: TemporaryAccess;
  onChange: (next: TemporaryAccess) => void;
  errors?: { temporaryRange?: string | undefined; startAt?: string | undefined } | undefined;
  disabled?: boolean;
}

/** Permanent or temporary; for temporary, how long (1h, 1d…) and from when, with the end it gives. */
export function TemporaryAccessFields({
  idPrefix,
  noun,
  value,
  onChange,
  errors,
  disabled,
}: TemporaryAccessFieldsProps) {
  const set = (patch: Partial<TemporaryAccess>) => onChange({ ...value, ...patch });
  const rangeId = `${idPrefix}-range`;
  const startAtId = `${idPrefix}-start-at`;
  return (
    <div className="grid gap-3">
      <div className="flex items-center gap-2">
        <Switch
          id={`${idPrefix}-temporary`}
          checked={value.isTemporary}
          onCheckedChange={(isTemporary) => set({ isTemporary })}
          disabled={disabled}
        />
        <Label htmlFor={`${idPrefix}-temporary`} className="font-normal">
          Temporary {noun}
        </Label>
      </div>
      {value.isTemporary ? (
        <fieldset className="grid gap-3 rounded-md border border-border bg-surface p-3" disabled={disabled}>
          <legend className="sr-only">Temporary access for this {noun}</legend>
          <div className="grid gap-2">
            <Label htmlFor={rangeId}>Duration</Label>
            <div className="flex flex-wrap items-center gap-2">
              <Input
                id={rangeId}
                value={value.temporaryRange}
                onChange={(event) => set({ temporaryRange: event.target.value })}
                className="w-28 font-mono"
                autoComplete="off"
                spellCheck={false}
                aria-invalid={errors?.temporaryRange ? true : undefined}
                aria-describedby={errors?.temporaryRange ? `${rangeId}-error` : `${rangeId}-hint`}
              />
              <div className="flex flex-wrap gap-1" role="group" aria-label="Common durations">
                {RANGE_PRESETS.map((preset) => (
                  <button
                    key={preset}
                    type="button"
                    onClick={() => set({ temporaryRange: preset })}
                    aria-pressed={value.temporaryRange.trim() === preset}
                    className={cn(
                      "h-7 rounded-md border border-border px-2 font-mono text-xs outline-none hover:bg-hover",
                      "focus-visible:ring-2 focus-visible:ring-ring aria-pressed:border-accent aria-pressed:bg-accent-subtle aria-pressed:text-accent-subtle-foreground",
                    )}
                  >
                    {preset}
                  </button>
                ))}
              </div>
            </div>
            {errors?.temporaryRange ? (
              <p id={`${rangeId}-error`} className="text-[13px] text-destructive-subtle-foreground">
                {errors.temporaryRange}
              </p>
            ) : (
              <p id={`${rangeId}-hint`} className="text-[13px] text-muted-foreground">
                Such as 30m, 4h, 1d or 7d.
              </p>
            )}
          </div>
          <div className="grid gap-2" role="radiogroup" aria-label="Start">
            <span className="text-[13px] font-medium leading-none">Start</span>
            <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name={`${idPrefix}-start`}
                  checked={value.startMode === "now"}
                  onChange={() => set({ startMode: "now" })}
                  className="size-4 accent-(--color-accent)"
                />
                Now
              </label>
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name={`${idPrefix}-start`}
                  checked={value.startMode === "at"}
                  onChange={() => set({ startMode: "at", startAt: value.startAt || toLocalDateTime(new Date()) })}
                  className="size-4 accent-(--color-accent)"
                />
                At a time
              </label>
              {value.startMode === "at" ? (
                <Input
                  id={startAtId}
                  type="datetime-local"
                  step={1}
                  aria-label="Start time"
                  value={value.startAt}
                  onChange={(event) => set({ startAt: event.target.value })}
                  className="w-auto"
                  aria-invalid={errors?.startAt ? true : undefined}
                  aria-describedby={errors?.startAt ? `${startAtId}-error` : undefined}
                />
              ) : null}
            </div>
            {errors?.startAt ? (
              <p id={`${startAtId}-error`} className="text-[13px] text-destructive-subtle-foreground">
                {errors.startAt}
              </p>
            ) : null}
          </div>
          <EndPreview value={value} />
        </fieldset>
      ) : null}
    </div>
  );
}

/** When access would end if sent now; it follows the clock while the start is "now". */
function EndPreview({ value }: { value: TemporaryAccess }) {
  const now = useSyncExternalStore(subscribeClock, clockNow, clockNow);
  const end = previewEnd(value, new Date(now));
  if (!end) return null;
  const start = value.startMode === "at" ? parseLocalDateTime(value.startAt) : undefined;
  const future = start !== undefined && start.getTime() > now;
  return (
    <p className="text-[13px] text-muted-foreground" data-testid="temporary-end-preview">
      Ends <span className="font-medium text-foreground">{formatDateTime(end.toISOString())}</span>
      {end.getTime() > now
        ? ` (${describeCountdown(end.getTime() - now).replace(/ left$/, " from now")})`
        : " (already past)"}
      .{future ? " Access applies from when you save; the start time only sets when it ends." : null}
    </p>
  );
}
