import type { ShortcutDialog } from "../shortcuts";
import { CommandPalette } from "./command-palette";
import { ShortcutsDialog } from "./shortcuts-dialog";

interface ShortcutDialogsProps {
  opened: ShortcutDialog | undefined;
  onOpenedChange: (opened: ShortcutDialog | undefined) => void;
}

/** The dialogs the console's shortcuts open, loaded together the first time one is asked for. */
export function ShortcutDialogs({ opened, onOpenedChange }: ShortcutDialogsProps) {
  return (
    <>
      <CommandPalette
        open={opened === "palette"}
        onOpenChange={(open) => onOpenedChange(open ? "palette" : undefined)}
      />
      <ShortcutsDialog
        open={opened === "shortcuts"}
        onOpenChange={(open) => onOpenedChange(open ? "shortcuts" : undefined)}
      />
    </>
  );
}
