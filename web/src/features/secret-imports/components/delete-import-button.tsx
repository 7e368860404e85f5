import { Trash2 } from "lucide-react";
import { useState } from "react";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import type { ImportingFolder } from "../api";
import { useDeleteImport } from "../mutations";
import { type ImportRow, sourceLabel } from "../provided-keys";

interface DeleteImportButtonProps {
  folder: ImportingFolder;
  row: ImportRow;
  deniedReason: string | undefined;
}

export function DeleteImportButton({ folder, row, deniedReason }: DeleteImportButtonProps) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteImport(folder);
  const label = sourceLabel(row);

  function handleOpenChange(next: boolean) {
    if (!next) remove.reset();
    setOpen(next);
  }

  function confirm() {
    // The promise, not mutate's callbacks: this row is gone by the time the list is fresh.
    remove.mutateAsync(row.id).then(
      () => {
        toast.success("Import removed", label);
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
        aria-label={`Remove import ${label}`}
        deniedReason={deniedReason}
        onClick={() => setOpen(true)}
      >
        <Trash2 aria-hidden />
      </PermittedButton>
      <ConfirmDialog
        open={open}
        onOpenChange={handleOpenChange}
        title="Remove import"
        confirmLabel="Remove import"
        onConfirm={confirm}
        pending={remove.isPending}
        description={
          <p>
            Secrets of <code className="font-mono text-xs text-foreground">{label}</code> stop being readable here.
            Clients that rely on them get the next import&apos;s value, or none. The source folder is not changed.
          </p>
        }
        error={
          remove.error && !isApiError(remove.error, 401)
            ? errorSummary(remove.error, "Could not remove the import")
            : undefined
        }
      />
    </>
  );
}
