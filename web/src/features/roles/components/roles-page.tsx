import type { ProjectRoleSummary } from "@keyhold/contract";
import { useSuspenseQuery } from "@tanstack/react-query";
import { Copy, Plus, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { ErrorPanel } from "@/components/errors/error-panel";
import { QueryBoundary } from "@/components/errors/query-boundary";
import { PageHeader } from "@/components/layout/page-header";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { paths } from "@/config/paths";
import { useProjectAbility } from "@/hooks/use-project-ability";
import { roleQueries } from "../queries";
import { isBuiltInRole, sortRoles } from "../role-form";
import { DeleteRoleButton } from "./delete-role-button";
import { type RoleDialogMode, RoleDetailsDialog } from "./role-details-dialog";
import { useProjectId } from "./use-role-params";

export function RolesPage() {
  const projectId = useProjectId();
  const ability = useProjectAbility(projectId);
  const [dialog, setDialog] = useState<RoleDialogMode>();

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Roles"
        description="A role is a set of permissions. Give roles to identities and users on the project's Access page."
        actions={
          <PermittedButton
            variant="primary"
            size="sm"
            deniedReason={ability.reason("create", "role")}
            onClick={() => setDialog({ kind: "create" })}
          >
            <Plus aria-hidden />
            Create role
          </PermittedButton>
        }
      />
      <QueryBoundary
        loading={<RolesSkeleton />}
        error={({ error, retry }) => <ErrorPanel error={error} title="Could not load the roles" onRetry={retry} />}
      >
        <RolesContent projectId={projectId} onDuplicate={(source) => setDialog({ kind: "duplicate", source })} />
      </QueryBoundary>
      <RoleDetailsDialog projectId={projectId} mode={dialog} onClose={() => setDialog(undefined)} />
    </div>
  );
}

interface RolesContentProps {
  projectId: string;
  onDuplicate: (role: ProjectRoleSummary) => void;
}

function RolesContent({ projectId, onDuplicate }: RolesContentProps) {
  const { data } = useSuspenseQuery(roleQueries.list(projectId));
  const roles = sortRoles(data);
  const builtIn = roles.filter((role) => isBuiltInRole(role.slug));
  const custom = roles.filter((role) => !isBuiltInRole(role.slug));

  return (
    <>
      <RolesSection
        title="Built-in roles"
        hint="Every project has these. View them, or duplicate one to start a custom role from its rules."
      >
        <RolesTable projectId={projectId} label="Built-in roles" roles={builtIn} onDuplicate={onDuplicate} />
      </RolesSection>
      <RolesSection title="Custom roles" hint="Roles defined for this project, with their own permissions.">
        {custom.length > 0 ? (
          <RolesTable projectId={projectId} label="Custom roles" roles={custom} onDuplicate={onDuplicate} />
        ) : (
          <div className="flex flex-col items-center rounded-xl border border-dashed border-border px-6 py-10 text-center">
            <ShieldCheck aria-hidden className="mb-3 size-5 text-muted-foreground" />
            <h3 className="text-sm font-semibold">No custom roles yet</h3>
            <p className="mt-1 max-w-sm text-sm text-muted-foreground">
              Create one from scratch, or duplicate a built-in role and change what it grants.
            </p>
          </div>
        )}
      </RolesSection>
    </>
  );
}

function RolesSection({ title, hint, children }: { title: string; hint: string; children: React.ReactNode }) {
  return (
    <section aria-label={title} className="grid gap-2">
      <div>
        <h2 className="text-sm font-semibold">{title}</h2>
        <p className="text-[13px] text-muted-foreground">{hint}</p>
      </div>
      {children}
    </section>
  );
}

interface RolesTableProps {
  projectId: string;
  label: string;
  roles: ProjectRoleSummary[];
  onDuplicate: (role: ProjectRoleSummary) => void;
}

function RolesTable({ projectId, label, roles, onDuplicate }: RolesTableProps) {
  const ability = useProjectAbility(projectId);
  const duplicateDenied = ability.reason("create", "role");
  return (
    <div className="overflow-hidden rounded-xl border border-border bg-card shadow-xs">
      {/* Fixed columns squeeze rather than overflow: below 40rem the table scrolls in its frame instead. */}
      <Table aria-label={label} className="min-w-[40rem] table-fixed">
        <TableHeader>
          <TableRow>
            <TableHead scope="col" className="w-[32%]">
              Name
            </TableHead>
            <TableHead scope="col" className="w-[20%]">
              Slug
            </TableHead>
            <TableHead scope="col">Description</TableHead>
            <TableHead scope="col" className="w-28 text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {roles.map((role) => {
            const builtIn = isBuiltInRole(role.slug);
            return (
              <TableRow key={role.slug} className="hover:bg-hover/60">
                <TableCell className="truncate">
                  <span className="inline-flex min-w-0 items-center gap-2">
                    <Link
                      to={paths.projectRole.href(projectId, role.slug)}
                      className="truncate rounded-sm font-medium text-foreground outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      {role.name}
                    </Link>
                    {builtIn ? <Badge tone="outline">Built-in</Badge> : null}
                  </span>
                </TableCell>
                <TableCell className="truncate">
                  <code className="font-mono text-[13px] text-muted-foreground">{role.slug}</code>
                </TableCell>
                <TableCell className="truncate text-[13px] text-muted-foreground">
                  {role.description || <span className="sr-only">No description</span>}
                </TableCell>
                <TableCell className="text-right">
                  <span className="inline-flex items-center gap-1">
                    <PermittedButton
                      variant="ghost"
                      size="icon-sm"
                      aria-label={`Duplicate ${role.name}`}
                      deniedReason={duplicateDenied}
                      onClick={() => onDuplicate(role)}
                    >
                      <Copy aria-hidden />
                    </PermittedButton>
                    {builtIn ? null : (
                      <DeleteRoleButton
                        projectId={projectId}
                        role={role}
                        deniedReason={ability.reason("delete", "role")}
                        compact
                      />
                    )}
                  </span>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}

function RolesSkeleton() {
  return (
    <div className="grid gap-3" aria-busy="true">
      <span className="sr-only" role="status">
        Loading roles…
      </span>
      <Skeleton className="h-4 w-32" />
      <div className="overflow-hidden rounded-xl border border-border bg-card">
        <div className="h-9 border-b border-border bg-surface" />
        {[0, 1, 2, 3].map((row) => (
          <div key={row} className="flex h-10 items-center gap-6 border-b border-border px-4 last:border-0">
            <Skeleton className="h-4 w-32" />
            <Skeleton className="h-4 w-20" />
            <Skeleton className="h-4 w-64" />
          </div>
        ))}
      </div>
    </div>
  );
}
