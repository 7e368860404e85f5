import { Monitor, Moon, Sun } from "lucide-react";
import type { ThemePreference } from "@/lib/theme";

export const themeOptions = [
  { value: "light", label: "Light", icon: Sun },
  { value: "dark", label: "Dark", icon: Moon },
  { value: "system", label: "System", icon: Monitor },
] as const satisfies ReadonlyArray<{ value: ThemePreference; label: string; icon: typeof Sun }>;

export function themeOption(preference: ThemePreference) {
  return themeOptions.find((option) => option.value === preference) ?? themeOptions[2];
}
