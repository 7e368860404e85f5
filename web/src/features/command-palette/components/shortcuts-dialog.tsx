import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { shortcuts } from "../shortcut-list";

interface ShortcutsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The console's keyboard shortcuts, opened with `?`. */
export function ShortcutsDialog({ open, onOpenChange }: ShortcutsDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Keyboard shortcuts</DialogTitle>
          <DialogDescription>Everything else is reached with Tab and Enter.</DialogDescription>
        </DialogHeader>
        <dl className="grid gap-1 text-sm">
          {shortcuts().map(({ keys, does }) => (
            <div
              key={does}
              className="flex items-center justify-between gap-4 border-b border-border py-2 last:border-0"
            >
              <dt className="text-muted-foreground">{does}</dt>
              <dd className="flex shrink-0 gap-1">
                {keys.map((key) => (
                  <kbd
                    key={key}
                    className="min-w-6 rounded border border-border bg-surface px-1.5 py-0.5 text-center font-mono text-xs text-foreground shadow-xs"
                  >
                    {key}
                  </kbd>
                ))}
              </dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}
