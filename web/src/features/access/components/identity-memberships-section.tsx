import type { ProjectIdentityMembership, ProjectRoleSummary } from "@keyhold/contract";
import { useQuery, useSuspenseQuery } from "@tanstack/react-query";
import { Bot, Search } from "lucide-react";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { IdentityName } from "@/components/identities/identity-name";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { paths } from "@/config/paths";
import { useServerFeature } from "@/hooks/use-server-feature";
import { errorSummary } from "@/lib/describe-error";
import { formatDate, formatDateTime } from "@/lib/format";
import { namesakeIds, shortId } from "@/lib/identity-names";
import { toast } from "@/lib/toast";
import { roleNameOf } from "../membership-form";
import { useRemoveIdentity } from "../mutations";
import { accessQueries } from "../queries";
import type { AccessGuards } from "./access-guards";
import { AddIdentityDialog } from "./add-identity-dialog";
import { RoleBadge } from "./countdown-text";
import { EditRolesDialog } from "./edit-roles-dialog";
import { GuardedButton } from "./guarded-button";
import { isRouteMissing } from "./identity-privileges-section";

interface IdentityMembershipsSectionProps {
  projectId: string;
  guards: AccessGuards;
  /** The identity whose privileges are shown below the table. */
  selectedIdentityId: string | undefined;
  onSelect: (identityId: string | undefined) => void;
}

/** The project's identities with their roles: add, change roles, remove, and open privileges. */
export function IdentityMembershipsSection({
  projectId,
  guards,
  selectedIdentityId,
  onSelect,
}: IdentityMembershipsSectionProps) {
  const { data: memberships } = useSuspenseQuery(accessQueries.identities(projectId));
  // The roles only name and offer roles: without them the list still shows, with role slugs.
  const rolesQuery = useQuery(accessQueries.roles(projectId));
  const roles = rolesQuery.data ?? [];
  const rolesError = rolesQuery.isError
    ? errorSummary(rolesQuery.error, "Could not load the project's roles")
    : undefined;
  const [filter, setFilter] = useState("");
  const [editing, setEditing] = useState<ProjectIdentityMembership>();
  const [removing, setRemoving] = useState<ProjectIdentityMembership>();
  const memberIds = useMemo(() => new Set(memberships.map((m) => m.identityId)), [memberships]);
  const namesakes = namesakeIds(memberships.map((m) => ({ id: m.identityId, name: m.identity.name })));

  const addDialog = (
    <AddIdentityDialog
      projectId={projectId}
      roles={roles}
      rolesError={rolesError}
      memberIds={memberIds}
      deniedReason={guards.addIdentity}
      onAdded={onSelect}
    />
  );

  if (memberships.length === 0) {
    return (
      <EmptyState
        icon={Bot}
        headingLevel={3}
        title="No identities in this project"
        description="Add an identity of your organization to give software access to this project's secrets."
        action={addDialog}
      />
    );
  }

  const needle = filter.trim().toLowerCase();
  const shown = memberships.filter(
    (m) =>
      !needle ||
      m.identity.name.toLowerCase().includes(needle) ||
      m.roles.some((r) => roleNameOf(r, roles).toLowerCase().includes(needle)),
  );

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="relative w-full max-w-xs">
          <label htmlFor="identity-membership-filter" className="sr-only">
            Filter identities
          </label>
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id="identity-membership-filter"
            type="search"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            placeholder="Filter by name or role"
            className="pl-9"
            autoComplete="off"
          />
        </div>
        <div className="flex items-center gap-3">
          <p className="text-[13px] text-muted-foreground" aria-live="polite">
            {memberships.length === 1 ? "1 identity" : `${memberships.length} identities`}
          </p>
          {addDialog}
        </div>
      </div>
      <div className="overflow-hidden rounded-xl border border-border bg-card shadow-xs">
        <Table aria-label="Project identities">
          <TableHeader>
            <TableRow>
              <TableHead scope="col">Identity</TableHead>
              <TableHead scope="col">Roles</TableHead>
              <TableHead scope="col">Added</TableHead>
              <TableHead scope="col">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {shown.map((membership) => (
              <MembershipRow
                key={membership.id}
                membership={membership}
                roles={roles}
                guards={guards}
                namesake={namesakes.has(membership.identityId)}
                selected={membership.identityId === selectedIdentityId}
                onPrivileges={() =>
                  onSelect(membership.identityId === selectedIdentityId ? undefined : membership.identityId)
                }
                onEdit={() => setEditing(membership)}
                onRemove={() => setRemoving(membership)}
              />
            ))}
          </TableBody>
        </Table>
        {shown.length === 0 ? (
          <div className="flex flex-col items-center gap-3 border-t border-border px-4 py-10 text-center">
            <p className="text-sm text-muted-foreground">No identities match “{filter}”.</p>
            <Button size="sm" onClick={() => setFilter("")}>
              Clear filter
            </Button>
          </div>
        ) : null}
      </div>
      <EditRolesDialog projectId={projectId} roles={roles} membership={editing} onClose={() => setEditing(undefined)} />
      <RemoveIdentityDialog
        projectId={projectId}
        membership={removing}
        onClose={() => setRemoving(undefined)}
        onRemoved={(identityId) => {
          if (identityId === selectedIdentityId) onSelect(undefined);
        }}
      />
    </div>
  );
}

interface MembershipRowProps {
  membership: ProjectIdentityMembership;
  roles: readonly ProjectRoleSummary[];
  guards: AccessGuards;
  /** Another identity of the project has the same name. */
  namesake: boolean;
  selected: boolean;
  onPrivileges: () => void;
  onEdit: () => void;
  onRemove: () => void;
}

function MembershipRow(props: MembershipRowProps) {
  const { membership, roles, guards, namesake, selected, onPrivileges, onEdit, onRemove } = props;
  // The buttons' names tell namesakes apart as the link does.
  const name = namesake ? `${membership.identity.name} (${shortId(membership.identityId)})` : membership.identity.name;
  return (
    <TableRow className={selected ? "bg-accent-subtle/40" : "hover:bg-hover/60"} aria-selected={selected || undefined}>
      <TableCell>
        <Link
          to={paths.identity.href(membership.identityId)}
          className="rounded-sm font-medium text-foreground outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          <IdentityName name={membership.identity.name} id={membership.identityId} namesake={namesake} />
        </Link>
      </TableCell>
      <TableCell>
        <ul className="flex flex-wrap gap-1.5" aria-label={`Roles of ${name}`}>
          {membership.roles.map((role) => (
            <li key={role.id}>
              <RoleBadge name={roleNameOf(role, roles)} grant={role} />
            </li>
          ))}
        </ul>
      </TableCell>
      <TableCell>
        <time
          dateTime={membership.createdAt}
          title={formatDateTime(membership.createdAt)}
          className="text-[13px] text-muted-foreground tabular-nums"
        >
          {formatDate(membership.createdAt)}
        </time>
      </TableCell>
      <TableCell className="text-right whitespace-nowrap">
        <div className="flex justify-end gap-1">
          <Button
            size="sm"
            variant={selected ? "secondary" : "ghost"}
            aria-label={`Privileges of ${name}`}
            aria-pressed={selected}
            onClick={onPrivileges}
          >
            Privileges
          </Button>
          <GuardedButton
            size="sm"
            variant="ghost"
            aria-label={`Edit roles of ${name}`}
            deniedReason={guards.editIdentity}
            onClick={onEdit}
          >
            Edit roles
          </GuardedButton>
          <GuardedButton
            size="sm"
            variant="ghost"
            className="text-destructive-subtle-foreground"
            aria-label={`Remove ${name}`}
            deniedReason={guards.removeIdentity}
            onClick={onRemove}
          >
            Remove
          </GuardedButton>
        </div>
      </TableCell>
    </TableRow>
  );
}

interface RemoveIdentityDialogProps {
  projectId: string;
  membership: ProjectIdentityMembership | undefined;
  onClose: () => void;
  onRemoved: (identityId: string) => void;
}

function RemoveIdentityDialog({ projectId, membership, onClose, onRemoved }: RemoveIdentityDialogProps) {
  const remove = useRemoveIdentity(projectId);
  // Its additional privileges in the project go with the membership.
  const privilegesFeature = useServerFeature("privilegesV2");
  const privileges = useQuery({
    ...accessQueries.privileges(projectId, membership?.identityId ?? ""),
    staleTime: 0,
    enabled: membership !== undefined && privilegesFeature.available,
    select: (list) => [{ count: list.length, one: "additional privilege", many: "additional privileges" }],
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={membership !== undefined}
      onOpenChange={(open) => (open ? undefined : close())}
      title={`Remove ${membership?.identity.name ?? "identity"} from this project?`}
      description={
        <p>
          <span className="font-medium text-foreground">{membership?.identity.name}</span> loses its roles and its
          additional privileges in this project at once. The identity itself stays in your organization.
        </p>
      }
      removes={
        privilegesFeature.available && !isRouteMissing(privileges.error)
          ? {
              name: membership?.identity.name ?? "",
              counting: privileges,
              sentence: (counts) => <>Deleted with it: {counts}.</>,
            }
          : undefined
      }
      confirmLabel="Remove identity"
      onConfirm={() => {
        if (!membership) return;
        remove.mutate(membership.identityId, {
          onSuccess: () => {
            toast.success("Identity removed from the project", membership.identity.name);
            onRemoved(membership.identityId);
            close();
          },
        });
      }}
      pending={remove.isPending}
      error={remove.error ? errorSummary(remove.error, "Could not remove the identity") : undefined}
    />
  );
}
