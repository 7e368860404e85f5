import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { type ReactNode, useId, useState } from "react";
import { cn } from "@/lib/cn";
import { Button } from "./button";
import { overlayClasses, panelClasses } from "./dialog";
import { Input } from "./input";
import { Label } from "./label";
import { Spinner } from "./spinner";

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  /** The confirm button's label, e.g. "Delete". */
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
  /** When set, the user must type this text before confirming. */
  confirmText?: string | undefined;
  /** Blocks confirming, e.g. when the server is known to refuse. */
  blocked?: boolean;
  /** An error from the last attempt, shown inside the dialog. */
  error?: ReactNode;
  children?: ReactNode;
}

/** The one confirmation step every destructive action goes through. */
function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, onOpenChange, title, description, confirmLabel, onConfirm, pending = false } = props;
  const { confirmText, blocked = false, error, children } = props;
  const [typed, setTyped] = useState("");
  const inputId = useId();
  const matches = confirmText === undefined || typed === confirmText;

  function handleOpenChange(next: boolean) {
    if (pending) return;
    if (!next) setTyped("");
    onOpenChange(next);
  }

  return (
    <AlertDialog.Root open={open} onOpenChange={handleOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClasses} />
        <AlertDialog.Content className={cn(panelClasses, "max-w-md")}>
          <div className="grid gap-1.5">
            <AlertDialog.Title className="text-base font-semibold leading-6 tracking-tight">{title}</AlertDialog.Title>
            <AlertDialog.Description asChild>
              <div className="text-sm text-muted-foreground">{description}</div>
            </AlertDialog.Description>
          </div>
          {children}
          {confirmText !== undefined && !blocked ? (
            <div className="grid gap-2">
              <Label htmlFor={inputId} className="font-normal text-muted-foreground">
                Type <span className="font-mono font-medium text-foreground">{confirmText}</span> to confirm
              </Label>
              <Input
                id={inputId}
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                autoComplete="off"
                spellCheck={false}
              />
            </div>
          ) : null}
          {error ? (
            <div
              role="alert"
              className="rounded-md border border-destructive/40 bg-destructive-subtle px-3 py-2 text-[13px] text-destructive-subtle-foreground"
            >
              {error}
            </div>
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={pending}>
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <Button
              variant="destructive"
              disabled={blocked || !matches || pending}
              aria-busy={pending || undefined}
              onClick={onConfirm}
            >
              {pending ? <Spinner /> : null}
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

export { ConfirmDialog };
