import { DiscardChangesDialog } from "@/components/ui/discard-changes-dialog";
import type { useLeaveGuard, useUnsavedPlace } from "@/hooks/use-unsaved-changes";

interface UnsavedChangesDialogsProps {
  leaving: ReturnType<typeof useLeaveGuard>;
  guard: ReturnType<typeof useUnsavedPlace>;
}

/** The guard's two questions: leaving the page, and a form's own way out. */
export function UnsavedChangesDialogs({ leaving, guard }: UnsavedChangesDialogsProps) {
  return (
    <>
      <DiscardChangesDialog
        open={leaving.blocked}
        onStay={leaving.stay}
        onDiscard={leaving.leave}
        description="Your changes have not been saved. Leaving this page discards them."
      />
      <DiscardChangesDialog
        open={guard.asking}
        onStay={guard.stay}
        onDiscard={guard.discard}
        description="Your changes have not been saved. Discarding them cannot be undone."
      />
    </>
  );
}
