import type { ProjectMembership } from "@keyhold/contract";
import { useQuery, useSuspenseQuery } from "@tanstack/react-query";
import { UserRound } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { errorSummary } from "@/lib/describe-error";
import { formatDate, formatDateTime } from "@/lib/format";
import { roleNameOf } from "../membership-form";
import { accessQueries } from "../queries";
import type { AccessGuards } from "./access-guards";
import { RoleBadge } from "./countdown-text";
import { InviteUsersDialog } from "./invite-users-dialog";

function displayName(user: ProjectMembership["user"]): string {
  const full = [user.firstName, user.lastName].filter(Boolean).join(" ").trim();
  return full || user.email || user.username;
}

/** The people who are members of the project, with their roles; invite more by e-mail. */
export function UserMembershipsSection({ projectId, guards }: { projectId: string; guards: AccessGuards }) {
  const { data: memberships } = useSuspenseQuery(accessQueries.users(projectId));
  // The roles only name and offer roles: without them the list still shows, with role slugs.
  const rolesQuery = useQuery(accessQueries.roles(projectId));
  const roles = rolesQuery.data ?? [];
  const invite = (
    <InviteUsersDialog
      projectId={projectId}
      roles={roles}
      rolesError={rolesQuery.isError ? errorSummary(rolesQuery.error, "Could not load the project's roles") : undefined}
      deniedReason={guards.inviteUsers}
    />
  );

  if (memberships.length === 0) {
    return (
      <EmptyState
        icon={UserRound}
        headingLevel={3}
        title="No users in this project"
        description="Invite people by e-mail address and choose the role they have here."
        action={invite}
      />
    );
  }

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center justify-end gap-3">
        <p className="text-[13px] text-muted-foreground">
          {memberships.length === 1 ? "1 user" : `${memberships.length} users`}
        </p>
        {invite}
      </div>
      <div className="overflow-hidden rounded-xl border border-border bg-card shadow-xs">
        <Table aria-label="Project users">
          <TableHeader>
            <TableRow>
              <TableHead scope="col">User</TableHead>
              <TableHead scope="col">Roles</TableHead>
              <TableHead scope="col">Joined</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {memberships.map((membership) => {
              const name = displayName(membership.user);
              return (
                <TableRow key={membership.id} className="hover:bg-hover/60">
                  <TableCell>
                    <div className="grid">
                      <span className="font-medium">{name}</span>
                      {membership.user.email && membership.user.email !== name ? (
                        <span className="text-xs text-muted-foreground">{membership.user.email}</span>
                      ) : null}
                    </div>
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
                    {membership.createdAt ? (
                      <time
                        dateTime={membership.createdAt}
                        title={formatDateTime(membership.createdAt)}
                        className="text-[13px] text-muted-foreground tabular-nums"
                      >
                        {formatDate(membership.createdAt)}
                      </time>
                    ) : (
                      <span className="text-[13px] text-muted-foreground">Not recorded</span>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
