import type { MembershipRole } from "@keyhold/contract";
import { useSuspenseQuery } from "@tanstack/react-query";
import { Clock, FolderKey } from "lucide-react";
import { Link } from "react-router";
import { ErrorPanel } from "@/components/errors/error-panel";
import { QueryBoundary } from "@/components/errors/query-boundary";
import { Badge } from "@/components/ui/badge";
import { buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { paths } from "@/config/paths";
import { formatDate, formatDateTime } from "@/lib/format";
import { identityQueries } from "../queries";

const PROJECT_ROLE_LABELS: Record<string, string> = {
  admin: "Admin",
  member: "Member",
  viewer: "Viewer",
  "no-access": "No access",
};

function roleLabel(role: MembershipRole): string {
  if (role.role === "custom") return role.customRoleName ?? role.customRoleSlug ?? "Custom role";
  return PROJECT_ROLE_LABELS[role.role] ?? role.role;
}

/** A role, and for temporary access when it ends (or that it had ended when the list was read, `asOf`). */
function ProjectRoleBadge({ role, asOf }: { role: MembershipRole; asOf: number }) {
  const end = role.temporaryAccessEndTime ?? null;
  const ended = end !== null && Date.parse(end) <= asOf;
  return (
    <span className="inline-flex items-center gap-1">
      <Badge tone={role.role === "admin" ? "accent" : "neutral"}>{roleLabel(role)}</Badge>
      {role.isTemporary ? (
        <Badge tone={ended ? "outline" : "warning"} title={end ? formatDateTime(end) : undefined}>
          <Clock aria-hidden />
          {ended ? "Temporary, ended" : end ? `Temporary, until ${formatDateTime(end)}` : "Temporary"}
        </Badge>
      ) : null}
    </span>
  );
}

function Memberships({ identityId }: { identityId: string }) {
  const { data: memberships, dataUpdatedAt } = useSuspenseQuery(identityQueries.projectMemberships(identityId));
  if (memberships.length === 0) {
    return (
      <EmptyState
        icon={FolderKey}
        headingLevel={3}
        className="m-4 py-8"
        title="Not a member of any project"
        description="This identity can read no secrets yet. Add it to a project from that project's Access page, with a role there."
        action={
          <Link to={paths.projects.href()} className={buttonVariants({ size: "sm" })}>
            Go to projects
          </Link>
        }
      />
    );
  }
  return (
    <Table aria-label="Project memberships">
      <TableHeader>
        <TableRow>
          <TableHead scope="col">Project</TableHead>
          <TableHead scope="col">Roles</TableHead>
          <TableHead scope="col">Added</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {memberships.map((membership) => (
          <TableRow key={membership.id}>
            <TableCell>
              <Link
                to={paths.projectHome.href(membership.project.id)}
                className="rounded-sm font-medium outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
              >
                {membership.project.name}
              </Link>
            </TableCell>
            <TableCell>
              <span className="flex flex-wrap gap-2">
                {membership.roles.map((role) => (
                  <ProjectRoleBadge key={role.id} role={role} asOf={dataUpdatedAt} />
                ))}
              </span>
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
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The projects an identity belongs to; loads on its own, so the rest of the page does not wait. */
export function ProjectMembershipsSection({ identityId }: { identityId: string }) {
  return (
    <section
      aria-labelledby="identity-project-memberships"
      className="overflow-hidden rounded-xl border border-border bg-card shadow-xs"
    >
      <div className="border-b border-border px-4 py-3">
        <h2 id="identity-project-memberships" className="text-sm font-semibold">
          Project memberships
        </h2>
        <p className="mt-0.5 text-[13px] text-muted-foreground">
          The projects whose secrets this identity may reach, and its roles in each.
        </p>
      </div>
      <QueryBoundary
        loading={
          <div className="grid gap-3 p-4" aria-busy="true">
            <span className="sr-only" role="status">
              Loading project memberships…
            </span>
            <Skeleton className="h-4 w-64" />
            <Skeleton className="h-4 w-48" />
          </div>
        }
        error={({ error, retry }) => (
          <ErrorPanel
            error={error}
            title="Could not load project memberships"
            onRetry={retry}
            className="m-4 border-0 shadow-none"
          />
        )}
      >
        <Memberships identityId={identityId} />
      </QueryBoundary>
    </section>
  );
}
