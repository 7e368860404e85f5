import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { TriangleAlert } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import { Button } from "./button";
import { type Counting, confirmRule, describeCounts, type Removal, removalOf } from "./confirm-removal";
import { overlayClasses, panelClasses } from "./dialog-classes";
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
  /** What the delete takes with it; it decides whether the name must be typed (see `confirmRule`). */
  removes?: Removes | undefined;
  /** Blocks confirming, e.g. when the server is known to refuse. */
  blocked?: boolean;
  /** An error from the last attempt, shown inside the dialog. */
  error?: ReactNode;
  children?: ReactNode;
}

interface Removes {
  /** What must be typed when anything goes with it, or when that could not be counted. */
  name: string;
  counting: Counting;
  /** The counts in a sentence, given them in words: "42 secrets, 3 folders and 2 imports". */
  sentence: (counts: string) => ReactNode;
  /** Its delete always takes others with it (a project, an identity): the name is always asked for. */
  always?: boolean;
}

/** The one confirmation step every destructive action goes through. */
function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, onOpenChange, title, description, confirmLabel, onConfirm, pending = false } = props;
  const { blocked = false, error, children, removes } = props;
  const [typed, setTyped] = useState("");
  const inputId = useId();
  const removal = removes ? removalOf(removes.counting) : undefined;
  const rule = confirmRule(removal, removes?.always);
  const confirmText = props.confirmText ?? (rule.typeName ? removes?.name : undefined);
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
          {error ? (
            <div
              role="alert"
              className="rounded-md border border-destructive/40 bg-destructive-subtle px-3 py-2 text-[13px] text-destructive-subtle-foreground"
            >
              {error}
            </div>
          ) : null}
          {children}
          {removes && removal && !blocked ? <RemovalNote removal={removal} sentence={removes.sentence} /> : null}
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
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={pending}>
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <Button
              variant="destructive"
              disabled={blocked || rule.waiting || !matches || pending}
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

/** What goes with the deleted thing: being counted, counted, or not countable. */
function RemovalNote({ removal, sentence }: { removal: Removal; sentence: Removes["sentence"] }) {
  if (removal.state === "counting") {
    return (
      <p role="status" className="flex items-center gap-2 text-[13px] text-muted-foreground">
        <Spinner />
        Counting what goes with it…
      </p>
    );
  }
  const counted = removal.state === "counted" ? describeCounts(removal.counts) : "";
  if (removal.state === "counted" && !counted) return null;
  return (
    <div
      role="status"
      className="flex items-start gap-2 rounded-md border border-warning-border bg-warning-subtle px-3 py-2 text-[13px] text-warning-subtle-foreground"
    >
      <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
      {removal.state === "counted" ? (
        <p>{sentence(counted)}</p>
      ) : (
        <p>What goes with it could not be counted: {errorSummary(removal.error, "The server did not answer")}</p>
      )}
    </div>
  );
}

export { ConfirmDialog };
