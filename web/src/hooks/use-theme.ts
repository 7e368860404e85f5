import { useSyncExternalStore } from "react";
import { readThemePreference, setThemePreference, subscribeTheme, type ThemePreference } from "@/lib/theme";

export function useTheme(): [ThemePreference, (preference: ThemePreference) => void] {
  const preference = useSyncExternalStore(subscribeTheme, readThemePreference, () => "system" as const);
  return [preference, setThemePreference];
}
