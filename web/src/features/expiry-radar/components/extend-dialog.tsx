import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { errorSummary } from "@/lib/describe-error";
import { formatDateTime } from "@/lib/format";
import { toast } from "@/lib/toast";
import { type Ending, kindLabels } from "../endings";
import { EXTENSIONS, type Extension, extendedRange } from "../extend";
import { useExtendGrant } from "../mutations";

const stepLabels: Record<Extension, string> = { "1h": "1 hour", "1d": "1 day", "7d": "7 days", "30d": "30 days" };

interface ExtendDialogProps {
  ending: Ending;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Extends a temporary grant by a step, showing the new end of each choice before it is saved. */
export function ExtendDialog({ ending, open, onOpenChange }: ExtendDialogProps) {
  const [by, setBy] = useState<Extension>("1d");
  // Taken when the dialog opens, so the previews do not move while a choice is made.
  const [now] = useState(() => Date.now());
  const extend = useExtendGrant();
  const name = useId();
  const start = "start" in ending.action ? ending.action.start : ending.endsAt;
  const endOf = (step: Extension) => new Date(extendedRange({ start, endsAt: ending.endsAt }, step, now).end);

  function save() {
    extend.mutate(
      { ending, by, now: Date.now() },
      {
        onSuccess: () => {
          toast.success(
            `${kindLabels[ending.kind]} extended`,
            `${ending.name} now ends ${formatDateTime(endOf(by).toISOString())}`,
          );
          onOpenChange(false);
        },
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !extend.isPending && onOpenChange(next)}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Extend {ending.name}</DialogTitle>
          <DialogDescription>
            {kindLabels[ending.kind]} of {ending.holder.name}
            {ending.project ? ` in ${ending.project.name}` : ""}. It now ends {formatDateTime(ending.endsAt)}; its start
            stays as it is.
          </DialogDescription>
        </DialogHeader>
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">Extend by</legend>
          {EXTENSIONS.map((step) => (
            <label
              key={step}
              className="flex cursor-pointer items-center justify-between gap-3 rounded-md border border-border px-3 py-2 text-sm has-[:checked]:border-accent has-[:checked]:bg-accent-subtle has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
            >
              <span className="flex items-center gap-2">
                <input
                  type="radio"
                  name={name}
                  value={step}
                  checked={by === step}
                  onChange={() => setBy(step)}
                  className="accent-[var(--color-accent)]"
                />
                {stepLabels[step]}
              </span>
              <span className="text-xs text-muted-foreground">until {formatDateTime(endOf(step).toISOString())}</span>
            </label>
          ))}
        </fieldset>
        <FormAlert message={extend.error ? errorSummary(extend.error, "Could not extend it") : undefined} />
        <DialogFooter>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={extend.isPending}>
            Cancel
          </Button>
          <Button
            variant="primary"
            onClick={save}
            disabled={extend.isPending}
            aria-busy={extend.isPending || undefined}
          >
            {extend.isPending ? <Spinner /> : null}
            Extend
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
