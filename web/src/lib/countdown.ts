/**
 * The time left on a temporary grant, as a live countdown shows it, and one shared clock that
 * ticks once a second for every countdown on the page (each countdown re-renders itself, not
 * the table around it).
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * "3d 04h", "5h 07m 09s", "7m 09s", "9s"; "Expired" at or below zero. Whole seconds, rounded
 * up, so the last second reads "1s" rather than "0s" and "Expired" is shown exactly at the end.
 */
export function formatCountdown(msLeft: number): string {
  if (!(msLeft > 0)) return "Expired";
  const total = Math.ceil(msLeft / SECOND) * SECOND;
  const days = Math.floor(total / DAY);
  const hours = Math.floor((total % DAY) / HOUR);
  const minutes = Math.floor((total % HOUR) / MINUTE);
  const seconds = Math.floor((total % MINUTE) / SECOND);
  if (days > 0) return `${days}d ${pad(hours)}h`;
  if (hours > 0) return `${hours}h ${pad(minutes)}m ${pad(seconds)}s`;
  if (minutes > 0) return `${minutes}m ${pad(seconds)}s`;
  return `${seconds}s`;
}

/** The same in words, for assistive technology and the tooltip: "3 days 4 hours left". */
export function describeCountdown(msLeft: number): string {
  if (!(msLeft > 0)) return "Expired";
  const total = Math.ceil(msLeft / SECOND) * SECOND;
  const units: [number, string][] = [
    [Math.floor(total / DAY), "day"],
    [Math.floor((total % DAY) / HOUR), "hour"],
    [Math.floor((total % HOUR) / MINUTE), "minute"],
    [Math.floor((total % MINUTE) / SECOND), "second"],
  ];
  const parts = units.filter(([n]) => n > 0).map(([n, unit]) => `${n} ${unit}${n === 1 ? "" : "s"}`);
  return `${parts.slice(0, 2).join(" ")} left`;
}

export type GrantState = "permanent" | "active" | "expired";

/** Whether a grant counts at `now`: a temporary one only before its end time. */
export function grantState(
  grant: { isTemporary: boolean; temporaryAccessEndTime?: string | null | undefined },
  now: number,
): GrantState {
  if (!grant.isTemporary) return "permanent";
  const end = grant.temporaryAccessEndTime ? Date.parse(grant.temporaryAccessEndTime) : Number.NaN;
  return Number.isFinite(end) && now < end ? "active" : "expired";
}

/* One clock for every countdown: an interval runs only while something listens. */
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

export function subscribeClock(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, SECOND);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

export function clockNow(): number {
  // Before the first tick, whole seconds, so that reads within one render agree.
  if (!timer) now = Math.floor(Date.now() / SECOND) * SECOND;
  return now;
}
