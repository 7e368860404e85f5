import { Trash2 } from "lucide-react";
import { type ReactNode, useState } from "react";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";

/** The parts of a TanStack mutation that deleting one row uses. */
interface RowDeletion {
  mutateAsync(id: string): Promise<unknown>;
  reset(): void;
  isPending: boolean;
  error: Error | null;
}

interface DeleteWithConfirmProps {
  /** The row's id, as the mutation takes it. */
  id: string;
  remove: RowDeletion;
  /** The icon button's accessible name. */
  label: string;
  /** The dialog's title and its confirm button's text. */
  action: string;
  description: ReactNode;
  /** The toast after the delete: its title and detail. */
  done: { title: string; detail: string };
  /** The error summary's fallback when the server says nothing useful. */
  failure: string;
  deniedReason: string | undefined;
}

/**
 * A bin icon button for one row of a list, asking before it deletes: the server's refusal is
 * shown in the dialog, which stays open; success closes it with a toast.
 */
export function DeleteWithConfirm(props: DeleteWithConfirmProps) {
  const { id, remove, label, action, description, done, failure, deniedReason } = props;
  const [open, setOpen] = useState(false);

  function handleOpenChange(next: boolean) {
    if (!next) remove.reset();
    setOpen(next);
  }

  function confirm() {
    // The promise, not mutate's callbacks: the row holding this button is gone once the list is fresh.
    remove.mutateAsync(id).then(
      () => {
        toast.success(done.title, done.detail);
        setOpen(false);
      },
      () => undefined, // shown in the dialog from the mutation's error state
    );
  }

  return (
    <>
      <PermittedButton
        variant="ghost"
        size="icon-sm"
        aria-label={label}
        deniedReason={deniedReason}
        onClick={() => setOpen(true)}
      >
        <Trash2 aria-hidden />
      </PermittedButton>
      <ConfirmDialog
        open={open}
        onOpenChange={handleOpenChange}
        title={action}
        confirmLabel={action}
        onConfirm={confirm}
        pending={remove.isPending}
        description={description}
        error={remove.error && !isApiError(remove.error, 401) ? errorSummary(remove.error, failure) : undefined}
      />
    </>
  );
}
