import type { PermissionRuleInput } from "@keyhold/contract";
import type { ProjectRule } from "@keyhold/contract/permission-engine";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { AccessChangeList } from "@/components/permissions/access-change-list";
import { heldRoleSlug, type ProjectMember } from "@/components/permissions/access-preview";
import { previewDataQueries } from "@/components/permissions/preview-data";
import { RolesOnlyNotice } from "@/components/permissions/roles-only-notice";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { Skeleton } from "@/components/ui/skeleton";
import { errorSummary } from "@/lib/describe-error";
import { previewQueries } from "../preview-api";
import { roleKeys } from "../queries";
import { type EditedRole, holdsRole, previewRoleChange } from "../role-change-preview";

interface RoleChangePreviewProps {
  projectId: string;
  role: EditedRole;
  draft: readonly PermissionRuleInput[];
}

/**
 * What saving `draft` would change for the role's holders, per environment × folder × secret
 * action. Loaded lazily with the permission engine when a save is reviewed.
 */
export default function RoleChangePreview({ projectId, role, draft }: RoleChangePreviewProps) {
  const data = usePreviewData(projectId, role);
  // One moment for the whole preview: a temporary role ending while it is open does not shift it.
  const [now] = useState(() => Date.now());
  const result = useMemo(() => {
    if (!data.data) return undefined;
    const { members, roles, scope } = data.data;
    try {
      const changes = previewRoleChange({
        role,
        draft: draft as ProjectRule[],
        members,
        rulesOf: (slug) => roles.get(slug),
        scope,
        now,
      });
      return { changes, error: undefined };
    } catch (error) {
      return { changes: undefined, error };
    }
  }, [data.data, role, draft, now]);

  if (data.isPending) {
    return (
      <div role="status" aria-label="Working out who is affected" className="grid gap-2">
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }
  const error = data.error ?? result?.error;
  if (error || !result?.changes) {
    return (
      <div className="grid gap-2">
        <FormAlert
          message={`The preview could not be worked out: ${errorSummary(error, "the server did not answer")}`}
        />
        <Button variant="secondary" size="sm" className="justify-self-start" onClick={() => data.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <div className="grid gap-2">
      <RolesOnlyNotice show={data.data?.rolesOnly ?? false} />
      <AccessChangeList members={result.changes} />
    </div>
  );
}

/** The project's scope, the role's holders with their privileges, and the rules of every role they hold. */
function usePreviewData(projectId: string, role: EditedRole) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...roleKeys.preview(projectId), "data", role],
    staleTime: 0,
    meta: { errorShownInPlace: true },
    queryFn: async () => {
      const [scope, members] = await Promise.all([
        queryClient.fetchQuery(previewDataQueries.scope(projectId)),
        queryClient.fetchQuery(previewQueries.members(projectId)),
      ]);
      const identities = members.identities.filter((member) => holdsRole(member, role));
      const users = members.users.filter((member) => holdsRole(member, role));
      const slugs = [...new Set([...identities, ...users].flatMap((member) => member.roles.map(heldRoleSlug)))];
      const [held, privileges] = await Promise.all([
        Promise.all(slugs.map((slug) => queryClient.fetchQuery(previewDataQueries.role(projectId, slug)))),
        Promise.all(
          identities.map((identity) => queryClient.fetchQuery(previewQueries.privileges(projectId, identity.id))),
        ),
      ]);
      const holders: ProjectMember[] = [
        ...identities.map((identity, index) => ({
          kind: "identity" as const,
          ...identity,
          privileges: (privileges[index]?.privileges ?? []).map((privilege) => ({
            ...privilege,
            permissions: privilege.permissions as ProjectRule[],
          })),
        })),
        // Users' additional privileges are not part of the API this console speaks: their roles decide.
        ...users.map((user) => ({ kind: "user" as const, ...user, privileges: [] })),
      ];
      const roles = new Map(held.map((r) => [r.slug, { name: r.name, rules: r.permissions as ProjectRule[] }]));
      // Identities whose privileges the server gave no way to read are counted by their roles.
      const rolesOnly = privileges.some((read) => read.rolesOnly);
      return { scope, members: holders, roles, rolesOnly };
    },
  });
}
