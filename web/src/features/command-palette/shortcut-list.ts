import { isMac } from "./shortcuts";

/** The keys of a shortcut as shown (each in its own key cap), and what it does. */
export interface Shortcut {
  keys: string[];
  does: string;
}

export function shortcuts(mac = isMac()): Shortcut[] {
  return [
    { keys: mac ? ["⌘", "K"] : ["Ctrl", "K"], does: "Open the command palette" },
    { keys: ["?"], does: "Show these keyboard shortcuts" },
    { keys: ["↑", "↓"], does: "Move through the palette's results" },
    { keys: ["Enter"], does: "Open the chosen result" },
    { keys: ["Esc"], does: "Close the palette or a dialog" },
  ];
}
