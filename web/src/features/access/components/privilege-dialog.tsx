import type { IdentityPrivilege } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { errorSummary } from "@/lib/describe-error";
import { accessQueries } from "../queries";

// The permission builder is the heaviest part of the page: it loads when a privilege dialog opens.
const PrivilegeForm = lazy(async () => ({ default: (await import("./privilege-form-body")).PrivilegeForm }));

export type PrivilegeTarget = { mode: "create" } | { mode: "edit"; privilegeId: string; slug: string };

interface PrivilegeDialogProps {
  projectId: string;
  identity: { id: string; name: string };
  /** What the dialog is doing; undefined while it is closed. */
  target: PrivilegeTarget | undefined;
  onClose: () => void;
}

/** Create or edit one additional privilege of an identity in the project. */
export function PrivilegeDialog({ projectId, identity, target, onClose }: PrivilegeDialogProps) {
  const editing = target?.mode === "edit" ? target : undefined;
  return (
    <Dialog open={target !== undefined} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-4xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{editing ? `Edit privilege ${editing.slug}` : "Add privilege"}</DialogTitle>
          <DialogDescription>
            Extra permissions for <span className="font-medium text-foreground">{identity.name}</span> in this project,
            on top of its roles. A temporary privilege stops counting at its end time.
          </DialogDescription>
        </DialogHeader>
        {target === undefined ? null : (
          <Suspense fallback={<Loading what="the form" />}>
            {editing ? (
              <EditPrivilege
                projectId={projectId}
                identityId={identity.id}
                privilegeId={editing.privilegeId}
                onDone={onClose}
              />
            ) : (
              <PrivilegeForm projectId={projectId} identityId={identity.id} onCancel={onClose} onSaved={onClose} />
            )}
          </Suspense>
        )}
      </DialogContent>
    </Dialog>
  );
}

function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
      <Spinner />
      Loading {what}…
    </p>
  );
}

/** The stored privilege (with its rules, which the list leaves out), then the form. */
function EditPrivilege({
  projectId,
  identityId,
  privilegeId,
  onDone,
}: {
  projectId: string;
  identityId: string;
  privilegeId: string;
  onDone: () => void;
}) {
  const query = useQuery(accessQueries.privilege(projectId, privilegeId));
  if (query.isPending) return <Loading what="the privilege" />;
  if (query.isError) return <FormAlert message={errorSummary(query.error, "Could not load the privilege")} />;
  const privilege: IdentityPrivilege = query.data;
  return (
    <PrivilegeForm
      projectId={projectId}
      identityId={identityId}
      privilege={privilege}
      onCancel={onDone}
      onSaved={onDone}
    />
  );
}
