import { memo } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import type { SecretFolder } from "../api";
import { useDeleteSecret } from "../mutations";

interface DeleteSecretDialogProps {
  folder: SecretFolder;
  /** The secret to delete; it stays set while the dialog closes, so the closing dialog keeps its text. */
  secretKey: string | undefined;
  open: boolean;
  onClose: () => void;
}

/**
 * Asks before deleting one of the table's secrets. Memoised with stable props, so a keystroke
 * in the search box, which renders the table again, leaves it (and its mutation) alone.
 */
export const DeleteSecretDialog = memo(function DeleteSecretDialog({
  folder,
  secretKey,
  open,
  onClose,
}: DeleteSecretDialogProps) {
  const remove = useDeleteSecret(folder);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (next) return;
        remove.reset();
        onClose();
      }}
      title={`Delete secret ${secretKey ?? ""}?`}
      description={
        <>
          <span className="font-mono text-foreground">{secretKey}</span> will be deleted from {folder.secretPath} in{" "}
          {folder.environment}. Anything that reads it will stop finding it.
        </>
      }
      confirmLabel="Delete secret"
      pending={remove.isPending}
      error={remove.error ? errorSummary(remove.error, "Could not delete the secret") : undefined}
      onConfirm={() => {
        if (!secretKey) return;
        remove.mutate(secretKey, {
          onSuccess: () => {
            toast.success("Secret deleted", secretKey);
            onClose();
          },
        });
      }}
    />
  );
});
