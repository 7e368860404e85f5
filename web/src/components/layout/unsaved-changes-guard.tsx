import { lazy, type ReactNode } from "react";
import { AfterFirstPaint } from "@/components/layout/after-first-paint";
import { UnsavedPlaceProvider, useLeaveGuard, useUnsavedPlace } from "@/hooks/use-unsaved-changes";

// The question is asked only once someone has typed something: its dialog (Radix's alert dialog)
// loads just after the page's first paint instead of before it.
const UnsavedChangesDialogs = lazy(async () => ({
  default: (await import("./unsaved-changes-dialogs")).UnsavedChangesDialogs,
}));

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
      <AfterFirstPaint fallback={null}>
        <UnsavedChangesDialogs leaving={leaving} guard={guard} />
      </AfterFirstPaint>
    </UnsavedPlaceProvider>
  );
}
