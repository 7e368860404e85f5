import { useSuspenseQuery } from "@tanstack/react-query";
import { Copy, Pencil } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { ActivityLink } from "@/components/audit/activity-link";
import { PageHeader } from "@/components/layout/page-header";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { paths } from "@/config/paths";
import { useProjectAbility } from "@/hooks/use-project-ability";
import { roleQueries } from "../queries";
import { isBuiltInRole } from "../role-form";
import { DeleteRoleButton } from "./delete-role-button";
import { type RoleDialogMode, RoleDetailsDialog } from "./role-details-dialog";
import { RolePermissions } from "./role-permissions";
import { useProjectId, useRoleSlug } from "./use-role-params";

/** One role: its details, and its rules as the visual builder and as JSON. */
export function RolePage() {
  const projectId = useProjectId();
  const roleSlug = useRoleSlug();
  const navigate = useNavigate();
  const { data: role } = useSuspenseQuery(roleQueries.detail(projectId, roleSlug));
  const ability = useProjectAbility(projectId);
  const [dialog, setDialog] = useState<RoleDialogMode>();
  const builtIn = isBuiltInRole(role.slug);

  return (
    <div className="grid gap-6">
      <PageHeader
        title={role.name}
        description={role.description || undefined}
        actions={
          <>
            <PermittedButton
              size="sm"
              deniedReason={ability.reason("create", "role")}
              onClick={() => setDialog({ kind: "duplicate", source: role })}
            >
              <Copy aria-hidden />
              Duplicate
            </PermittedButton>
            {builtIn ? null : (
              <>
                <PermittedButton
                  size="sm"
                  deniedReason={ability.reason("edit", "role")}
                  onClick={() => setDialog({ kind: "edit", role })}
                >
                  <Pencil aria-hidden />
                  Edit details
                </PermittedButton>
                <DeleteRoleButton
                  projectId={projectId}
                  role={role}
                  deniedReason={ability.reason("delete", "role")}
                  onDeleted={() => navigate(paths.project.roles.href(projectId), { replace: true })}
                />
              </>
            )}
          </>
        }
      >
        <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2">
          <span className="inline-flex items-center gap-1 rounded-md border border-border bg-surface py-0.5 pr-0.5 pl-2">
            <span className="sr-only">Slug</span>
            <code className="font-mono text-xs text-muted-foreground">{role.slug}</code>
            <CopyButton value={role.slug} label="Copy role slug" />
          </span>
          {builtIn ? <Badge tone="outline">Built-in</Badge> : <Badge tone="accent">Custom</Badge>}
          <ActivityLink
            variant="ghost"
            label={`Activity of the role ${role.name}`}
            of={
              builtIn
                ? { projectId, eventMetadata: { slug: role.slug } }
                : { projectId, eventMetadata: { roleId: role.id } }
            }
          />
        </div>
      </PageHeader>

      <RolePermissions
        // A saved change (new updatedAt) starts a fresh draft from what the server now holds.
        key={`${role.id}:${role.updatedAt}`}
        projectId={projectId}
        role={role}
        readOnlyReason={
          builtIn
            ? "Built-in roles cannot be changed. Duplicate this one to make a custom role from its rules."
            : ability.reason("edit", "role")
        }
      />
      <RoleDetailsDialog projectId={projectId} mode={dialog} onClose={() => setDialog(undefined)} />
    </div>
  );
}
