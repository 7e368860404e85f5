import type { ReactNode } from "react";
import { ConfirmDialog } from "./confirm-dialog";

interface DiscardChangesDialogProps {
  open: boolean;
  /** Keep the unsaved input (Cancel, Escape). */
  onStay: () => void;
  onDiscard: () => void;
  /** What is lost and how, e.g. "Your changes have not been saved. Closing discards them." */
  description: ReactNode;
}

/** The one question asked before unsaved input is thrown away. */
export function DiscardChangesDialog({ open, onStay, onDiscard, description }: DiscardChangesDialogProps) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onStay())}
      title="Discard unsaved changes?"
      description={<p>{description}</p>}
      confirmLabel="Discard changes"
      onConfirm={onDiscard}
    />
  );
}
