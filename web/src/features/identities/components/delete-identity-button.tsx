import { useQuery } from "@tanstack/react-query";
import { ShieldCheck, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { paths } from "@/config/paths";
import { isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import { allCounting } from "@/components/ui/confirm-removal";
import { useDeleteIdentity } from "../mutations";
import { identityQueries } from "../queries";

interface DeleteIdentityButtonProps {
  identityId: string;
  name: string;
  protectedFromDelete: boolean;
  /** The service refuses to let an identity delete itself. */
  isSignedInIdentity: boolean;
}

export function DeleteIdentityButton({
  identityId,
  name,
  protectedFromDelete,
  isSignedInIdentity,
}: DeleteIdentityButtonProps) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const deleteIdentity = useDeleteIdentity();
  const failure = deleteIdentity.error;
  const counting = open && !protectedFromDelete && !isSignedInIdentity;
  const methods = useQuery({ ...identityQueries.detail(identityId), select: (m) => m.identity.authMethods });
  const attached = methods.data ?? [];
  const projects = useQuery({
    ...identityQueries.projectMemberships(identityId),
    staleTime: 0,
    enabled: counting,
    select: (memberships) => [{ count: memberships.length, one: "project membership", many: "project memberships" }],
  });
  const authMethods = {
    status: methods.status,
    error: methods.error,
    data: [{ count: attached.length, one: "auth method", many: "auth methods" }],
  };

  function handleOpenChange(next: boolean) {
    if (!next) deleteIdentity.reset();
    setOpen(next);
  }

  function confirm() {
    deleteIdentity.mutate(identityId, {
      onSuccess: () => {
        toast.success("Identity deleted", name);
        setOpen(false);
        navigate(paths.identities.href(), { replace: true });
      },
    });
  }

  return (
    <>
      <Button variant="destructive-outline" size="sm" onClick={() => setOpen(true)}>
        <Trash2 aria-hidden />
        Delete identity
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={handleOpenChange}
        title="Delete identity"
        confirmLabel="Delete"
        onConfirm={confirm}
        pending={deleteIdentity.isPending}
        blocked={protectedFromDelete || isSignedInIdentity}
        removes={{
          name,
          counting: allCounting([authMethods, projects]),
          sentence: (counts) => <>Deleted with it: {counts}.</>,
          always: true,
        }}
        description={
          isSignedInIdentity ? (
            <p>
              You are signed in as <span className="font-medium text-foreground">{name}</span>, and an identity cannot
              delete itself. Sign in as another admin identity to delete it.
            </p>
          ) : protectedFromDelete ? (
            <p>
              <span className="font-medium text-foreground">{name}</span> cannot be deleted while delete protection is
              on; the server refuses the request.
            </p>
          ) : (
            <p>
              This permanently deletes <span className="font-medium text-foreground">{name}</span>, revokes its access
              tokens and removes it from every project. Software using it will stop working.
            </p>
          )
        }
        error={
          failure && !isApiError(failure, 401) ? errorSummary(failure, "Could not delete the identity") : undefined
        }
      >
        {protectedFromDelete && !isSignedInIdentity ? (
          <div className="flex items-start gap-2 rounded-md border border-warning-border bg-warning-subtle px-3 py-2 text-[13px] text-warning-subtle-foreground">
            <ShieldCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
            <p>
              Turn delete protection off on the{" "}
              <Link
                to={paths.identityEdit.href(identityId)}
                onClick={() => handleOpenChange(false)}
                className="font-medium underline underline-offset-2 outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                Edit tab
              </Link>{" "}
              first, then delete.
            </p>
          </div>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
