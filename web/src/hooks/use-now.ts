import { useSyncExternalStore } from "react";
import { clockNow, subscribeClock } from "@/lib/countdown";

/** The shared clock's time; only a component that reads it re-renders each second. */
export function useNow(): number {
  return useSyncExternalStore(subscribeClock, clockNow, clockNow);
}
