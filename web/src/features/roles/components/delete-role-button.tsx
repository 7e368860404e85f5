import type { ProjectRoleSummary } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import { roleHolders } from "../api";
import { useDeleteRole } from "../mutations";
import { roleQueries } from "../queries";

interface DeleteRoleButtonProps {
  projectId: string;
  role: Pick<ProjectRoleSummary, "id" | "slug" | "name">;
  /** Why the signed-in identity may not delete roles; undefined when it may. */
  deniedReason: string | undefined;
  /** An icon button for table rows instead of a labelled one. */
  compact?: boolean;
  onDeleted?: () => void;
}

export function DeleteRoleButton({ projectId, role, deniedReason, compact = false, onDeleted }: DeleteRoleButtonProps) {
  const [open, setOpen] = useState(false);
  const deleteRole = useDeleteRole(projectId);
  const failure = deleteRole.error;
  const holders = useQuery({
    ...roleQueries.holders(projectId),
    enabled: open,
    select: (read) => {
      const held = roleHolders(read, role);
      return [
        { count: held.identities, one: "identity", many: "identities" },
        { count: held.users, one: "user", many: "users" },
      ];
    },
  });

  function handleOpenChange(next: boolean) {
    if (!next) deleteRole.reset();
    setOpen(next);
  }

  function confirm() {
    // The promise, not mutate's callbacks: the row holding this button may be gone by the time it settles.
    deleteRole.mutateAsync(role).then(
      () => {
        toast.success("Role deleted", role.name);
        setOpen(false);
        onDeleted?.();
      },
      () => undefined, // shown in the dialog from the mutation's error state
    );
  }

  return (
    <>
      <PermittedButton
        variant={compact ? "ghost" : "destructive-outline"}
        size={compact ? "icon-sm" : "sm"}
        aria-label={compact ? `Delete ${role.name}` : undefined}
        deniedReason={deniedReason}
        onClick={() => setOpen(true)}
      >
        <Trash2 aria-hidden />
        {compact ? null : "Delete role"}
      </PermittedButton>
      <ConfirmDialog
        open={open}
        onOpenChange={handleOpenChange}
        title="Delete role"
        confirmLabel="Delete role"
        onConfirm={confirm}
        pending={deleteRole.isPending}
        removes={{
          name: role.slug,
          counting: holders,
          sentence: (counts) => (
            <>
              In use by {counts}. The server refuses to delete a role while anyone holds it: give them another role
              first.
            </>
          ),
        }}
        description={
          <p>
            This permanently deletes <span className="font-medium text-foreground">{role.name}</span> (
            <code className="font-mono text-xs whitespace-nowrap">{role.slug}</code>).
          </p>
        }
        // A role still in use is a 400 whose message says how many memberships hold it; shown as the server words it.
        error={failure && !isApiError(failure, 401) ? errorSummary(failure, "Could not delete the role") : undefined}
      />
    </>
  );
}
