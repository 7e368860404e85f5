import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { type ComponentProps, type ReactNode, useLayoutEffect, useState } from "react";
import { UnsavedPlaceProvider, useUnsavedPlace } from "@/hooks/use-unsaved-changes";
import { cn } from "@/lib/cn";
import { overlayClasses, panelClasses } from "./dialog-classes";
import { DiscardChangesDialog } from "./discard-changes-dialog";

const DialogTrigger = DialogPrimitive.Trigger;
const DialogClose = DialogPrimitive.Close;

export { overlayClasses, panelClasses };

interface DialogProps extends ComponentProps<typeof DialogPrimitive.Root> {
  /** Unsaved input the dialog's owner holds; forms inside tell theirs through `useUnsavedChanges`. */
  dirty?: boolean;
  /** The question's sentence when closing would discard unsaved input. */
  discardDescription?: ReactNode;
}

/**
 * A dialog that asks before closing (Escape, a click outside, Close, a `DialogClose` Cancel) while
 * it holds unsaved input; without any it closes at once. Discarding leaves it released, so the
 * closing it causes (an address change, for a drawer in the URL) is not asked about again.
 */
function Dialog({ open, defaultOpen, onOpenChange, dirty = false, discardDescription, ...props }: DialogProps) {
  const [uncontrolled, setUncontrolled] = useState(defaultOpen ?? false);
  const shown = open ?? uncontrolled;
  const guard = useUnsavedPlace(dirty && shown);
  const { place } = guard;

  // A discard releases the dialog for the closing it starts; if it stays open, it guards again.
  useLayoutEffect(() => {
    if (shown) place.resume();
  });

  function setOpen(next: boolean) {
    if (open === undefined) setUncontrolled(next);
    onOpenChange?.(next);
  }

  function handleOpenChange(next: boolean) {
    if (next || !place.isDirty()) return setOpen(next);
    place.ask(() => {
      place.release();
      setOpen(false);
    });
  }

  return (
    <UnsavedPlaceProvider value={place}>
      <DialogPrimitive.Root open={shown} onOpenChange={handleOpenChange} {...props} />
      <DiscardChangesDialog
        open={guard.asking}
        onStay={guard.stay}
        onDiscard={guard.discard}
        description={discardDescription ?? "Your changes have not been saved. Closing discards them."}
      />
    </UnsavedPlaceProvider>
  );
}

function DialogContent({ className, children, ...props }: ComponentProps<typeof DialogPrimitive.Content>) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay data-slot="dialog-overlay" className={overlayClasses} />
      <DialogPrimitive.Content data-slot="dialog-content" className={cn(panelClasses, className)} {...props}>
        {children}
        <DialogPrimitive.Close
          className="absolute top-4 right-4 rounded-md p-1 text-muted-foreground transition-colors outline-none hover:bg-hover hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
          aria-label="Close"
        >
          <X aria-hidden className="size-4" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

function DialogHeader({ className, ...props }: ComponentProps<"div">) {
  return <div data-slot="dialog-header" className={cn("grid gap-1.5 pr-8", className)} {...props} />;
}

function DialogFooter({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      data-slot="dialog-footer"
      className={cn("flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)}
      {...props}
    />
  );
}

function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return (
    <DialogPrimitive.Title
      data-slot="dialog-title"
      className={cn("text-base font-semibold leading-6 tracking-tight", className)}
      {...props}
    />
  );
}

function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description
      data-slot="dialog-description"
      className={cn("text-sm text-muted-foreground", className)}
      {...props}
    />
  );
}

export {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
};
