import type { Integration } from "@keyhold/contract";
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import { useDeleteIntegration } from "../mutations";

interface DeleteIntegrationButtonProps {
  projectId: string;
  integration: Pick<Integration, "id" | "secretPath" | "environment">;
  /** The app and provider, for the label and the question. */
  name: string;
  deniedReason: string | undefined;
}

export function DeleteIntegrationButton({ projectId, integration, name, deniedReason }: DeleteIntegrationButtonProps) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteIntegration(projectId);

  function handleOpenChange(next: boolean) {
    if (!next) remove.reset();
    setOpen(next);
  }

  function confirm() {
    // The promise, not mutate's callbacks: the row holding this button is gone once the list is fresh.
    remove.mutateAsync(integration.id).then(
      () => {
        toast.success("Integration deleted", name);
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
        aria-label={`Delete integration ${name}`}
        deniedReason={deniedReason}
        onClick={() => setOpen(true)}
      >
        <Trash2 aria-hidden />
      </PermittedButton>
      <ConfirmDialog
        open={open}
        onOpenChange={handleOpenChange}
        title="Delete integration"
        confirmLabel="Delete integration"
        onConfirm={confirm}
        pending={remove.isPending}
        description={
          <p>
            <span className="font-medium text-foreground">{name}</span> stops receiving the secrets of{" "}
            <code className="font-mono text-xs text-foreground">
              {integration.environment.slug}:{integration.secretPath}
            </code>
            . Secrets already sent to the provider stay there.
          </p>
        }
        error={
          remove.error && !isApiError(remove.error, 401)
            ? errorSummary(remove.error, "Could not delete the integration")
            : undefined
        }
      />
    </>
  );
}
