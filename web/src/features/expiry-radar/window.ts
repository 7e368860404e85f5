import type { Ending } from "./endings";

/** The radar's filters: what has ended, what ends within a day or a week, or everything. */
export const radarWindows = ["expired", "24h", "7d", "all"] as const;
export type RadarWindow = (typeof radarWindows)[number];

export const windowLabels: Record<RadarWindow, string> = {
  expired: "Expired",
  "24h": "Within 24 h",
  "7d": "Within 7 days",
  all: "All",
};

const HOUR = 60 * 60 * 1000;
const horizon: Record<"24h" | "7d", number> = { "24h": 24 * HOUR, "7d": 7 * 24 * HOUR };

/** Whether an ending falls in the window at `now`: expired means ended at or before now. */
export function inWindow(ending: Pick<Ending, "endsAt">, window: RadarWindow, now: number): boolean {
  const end = Date.parse(ending.endsAt);
  if (window === "all") return true;
  if (window === "expired") return end <= now;
  return end > now && end <= now + horizon[window];
}

export function parseWindow(value: string | null): RadarWindow {
  return radarWindows.find((w) => w === value) ?? "7d";
}
