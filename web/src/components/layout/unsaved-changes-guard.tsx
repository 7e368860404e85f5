import type { ReactNode } from "react";
import { DiscardChangesDialog } from "@/components/ui/discard-changes-dialog";
import { UnsavedPlaceProvider, useLeaveGuard, useUnsavedPlace } from "@/hooks/use-unsaved-changes";

/**
 * The console's unsaved-input guard, around every signed-in page: leaving a page with a form
 * holding unsaved input asks first, reloading or closing the tab makes the browser ask, and a
 * form's own way out (an inline edit's Escape) asks here.
 */
export function UnsavedChangesGuard({ children }: { children: ReactNode }) {
  const guard = useUnsavedPlace();
  const leaving = useLeaveGuard(guard.place);

  return (
    <UnsavedPlaceProvider value={guard.place}>
      {children}
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
    </UnsavedPlaceProvider>
  );
}
