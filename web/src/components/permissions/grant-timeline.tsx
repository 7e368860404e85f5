import { useId } from "react";
import type { GrantEnd } from "./access-preview";

interface GrantTimelineProps {
  /** What ends after now, in time order. */
  ends: readonly GrantEnd[];
  /** 0 is now; i is just after the i-th end. */
  value: number;
  onChange: (value: number) => void;
}

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The words for a step of the timeline: "Now", or "12 Dec 2026, 14:05: privilege x ends". */
export function stepLabel(ends: readonly GrantEnd[], value: number): string {
  const end = ends[value - 1];
  if (!end) return "Now";
  return `${when.format(end.at)}: ${end.names.join(", ")} ${end.names.length === 1 ? "ends" : "end"}`;
}

/**
 * A stepped slider over the moments access changes (temporary roles and privileges ending): arrow
 * keys move between them, as with any range input.
 */
export function GrantTimeline({ ends, value, onChange }: GrantTimelineProps) {
  const id = useId();
  if (ends.length === 0) return null;
  const label = stepLabel(ends, value);
  return (
    <div className="grid gap-1.5 rounded-md border border-border bg-surface px-3 py-2">
      <label htmlFor={id} className="text-[13px] font-medium">
        Access over time
      </label>
      <input
        id={id}
        type="range"
        min={0}
        max={ends.length}
        step={1}
        value={value}
        aria-valuetext={label}
        onChange={(event) => onChange(Number(event.target.value))}
        className="w-full accent-[var(--accent)]"
      />
      <div className="flex justify-between text-xs text-muted-foreground" aria-hidden>
        <span>Now</span>
        <span>{ends.length === 1 ? "After it ends" : `${ends.length} changes ahead`}</span>
      </div>
      <p className="text-[13px]" aria-live="polite">
        Showing: {value === 0 ? "now" : `from ${label}`}
      </p>
    </div>
  );
}
