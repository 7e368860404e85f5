import type { ProjectIdentityMembership } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { KeyRound, Plus, RotateCw, X } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useServerFeature } from "@/hooks/use-server-feature";
import { isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";
import { formatDate, formatDateTime } from "@/lib/format";
import { toast } from "@/lib/toast";
import { useDeletePrivilege } from "../mutations";
import { accessQueries } from "../queries";
import type { AccessGuards } from "./access-guards";
import { GrantDuration } from "./countdown-text";
import { EffectiveAccessDialog } from "./effective-access-dialog";
import { GuardedButton } from "./guarded-button";
import { PrivilegeDialog, type PrivilegeTarget } from "./privilege-dialog";

interface IdentityPrivilegesSectionProps {
  projectId: string;
  membership: ProjectIdentityMembership;
  guards: AccessGuards;
  onClose: () => void;
}

/** A server without the route answers "Route … not found"; the list is then not available there. */
export function isRouteMissing(error: unknown): boolean {
  return isApiError(error, 404) && /route .* not found/i.test(error.message);
}

/** One identity's additional privileges in the project: list, add, edit and delete. */
export function IdentityPrivilegesSection({ projectId, membership, guards, onClose }: IdentityPrivilegesSectionProps) {
  const feature = useServerFeature("privilegesV2");
  const query = useQuery({ ...accessQueries.privileges(projectId, membership.identityId), enabled: feature.available });
  const [target, setTarget] = useState<PrivilegeTarget>();
  const [deleting, setDeleting] = useState<{ id: string; slug: string }>();
  const [showingAccess, setShowingAccess] = useState(false);
  const identity = { id: membership.identityId, name: membership.identity.name };
  const unavailable = !feature.available || isRouteMissing(query.error);
  const headingId = "identity-privileges-heading";

  return (
    <section aria-labelledby={headingId} className="overflow-hidden rounded-xl border border-border bg-card shadow-xs">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-border bg-surface px-4 py-3">
        <div className="min-w-0">
          <h3 id={headingId} className="text-sm font-semibold">
            Additional privileges of {membership.identity.name}
          </h3>
          <p className="text-[13px] text-muted-foreground">
            Permissions this identity has in the project on top of its roles.
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Button size="sm" variant="secondary" onClick={() => setShowingAccess(true)}>
            Effective access
          </Button>
          {unavailable ? null : (
            <GuardedButton
              size="sm"
              variant="primary"
              deniedReason={guards.editPrivileges}
              onClick={() => setTarget({ mode: "create" })}
            >
              <Plus aria-hidden />
              Add privilege
            </GuardedButton>
          )}
          <Button size="icon-sm" variant="ghost" aria-label="Close privileges" onClick={onClose}>
            <X aria-hidden />
          </Button>
        </div>
      </div>
      {unavailable ? (
        <p className="px-4 py-4 text-[13px] text-muted-foreground">
          Not available: {feature.reason ?? "This server has only the older, slug-addressed identity privileges."}
        </p>
      ) : query.isPending ? (
        <div className="grid gap-2 p-4" aria-busy="true">
          <span className="sr-only">Loading privileges</span>
          <Skeleton className="h-7" />
          <Skeleton className="h-7" />
        </div>
      ) : query.isError ? (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-2 bg-destructive-subtle px-4 py-3 text-[13px] text-destructive-subtle-foreground"
        >
          <span>{errorSummary(query.error, "Could not load the privileges")}</span>
          <Button size="sm" variant="secondary" onClick={() => void query.refetch()}>
            <RotateCw aria-hidden />
            Try again
          </Button>
        </div>
      ) : query.data.length === 0 ? (
        <div className="flex flex-col items-center gap-2 px-4 py-8 text-center">
          <KeyRound aria-hidden className="size-5 text-muted-foreground" />
          <p className="text-[13px] text-muted-foreground">
            No additional privileges. The identity has what its roles give it.
          </p>
        </div>
      ) : (
        <Table aria-label={`Privileges of ${membership.identity.name}`}>
          <TableHeader>
            <TableRow>
              <TableHead scope="col">Name</TableHead>
              <TableHead scope="col">Duration</TableHead>
              <TableHead scope="col">Created</TableHead>
              <TableHead scope="col">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {query.data.map((privilege) => (
              <TableRow key={privilege.id} className="hover:bg-hover/60">
                <TableCell className="font-mono text-[13px]">{privilege.slug}</TableCell>
                <TableCell>
                  <GrantDuration grant={privilege} />
                </TableCell>
                <TableCell>
                  <time
                    dateTime={privilege.createdAt}
                    title={formatDateTime(privilege.createdAt)}
                    className="text-[13px] text-muted-foreground tabular-nums"
                  >
                    {formatDate(privilege.createdAt)}
                  </time>
                </TableCell>
                <TableCell className="text-right whitespace-nowrap">
                  <div className="flex justify-end gap-1">
                    <GuardedButton
                      size="sm"
                      variant="ghost"
                      aria-label={`Edit privilege ${privilege.slug}`}
                      deniedReason={guards.editPrivileges}
                      onClick={() => setTarget({ mode: "edit", privilegeId: privilege.id, slug: privilege.slug })}
                    >
                      Edit
                    </GuardedButton>
                    <GuardedButton
                      size="sm"
                      variant="ghost"
                      className="text-destructive-subtle-foreground"
                      aria-label={`Delete privilege ${privilege.slug}`}
                      deniedReason={guards.editPrivileges}
                      onClick={() => setDeleting({ id: privilege.id, slug: privilege.slug })}
                    >
                      Delete
                    </GuardedButton>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <PrivilegeDialog projectId={projectId} identity={identity} target={target} onClose={() => setTarget(undefined)} />
      <DeletePrivilegeDialog projectId={projectId} target={deleting} onClose={() => setDeleting(undefined)} />
      <EffectiveAccessDialog
        projectId={projectId}
        identity={identity}
        open={showingAccess}
        onOpenChange={setShowingAccess}
      />
    </section>
  );
}

function DeletePrivilegeDialog({
  projectId,
  target,
  onClose,
}: {
  projectId: string;
  target: { id: string; slug: string } | undefined;
  onClose: () => void;
}) {
  const remove = useDeletePrivilege(projectId);
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={target !== undefined}
      onOpenChange={(open) => (open ? undefined : close())}
      title={`Delete privilege ${target?.slug ?? ""}?`}
      description="The identity loses these permissions at once; what its roles give it stays."
      confirmLabel="Delete privilege"
      onConfirm={() => {
        if (!target) return;
        remove.mutate(target.id, {
          onSuccess: () => {
            toast.success("Privilege deleted", target.slug);
            close();
          },
        });
      }}
      pending={remove.isPending}
      error={remove.error ? errorSummary(remove.error, "Could not delete the privilege") : undefined}
    />
  );
}
