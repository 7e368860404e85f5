import type { ProjectRule } from "@keyhold/contract/permission-engine";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { heldRoleSlug, type ProjectMember, type RoleRules } from "@/components/permissions/access-preview";
import { previewDataQueries } from "@/components/permissions/preview-data";
import { readPrivileges } from "@/components/permissions/privileges-read";
import { accessKeys, accessQueries } from "./queries";

/**
 * Everything that grants an identity access in a project, read for a preview or the effective
 * access view: its roles (with the rules of each, and of `extraRoleSlugs` a change may add), its
 * additional privileges with their rules (none, with `rolesOnly`, where the server has no list of
 * them), and the project's environments and folders.
 */
export function useIdentityGrants(projectId: string, identityId: string, extraRoleSlugs: readonly string[] = []) {
  const queryClient = useQueryClient();
  const extra = [...new Set(extraRoleSlugs)].sort();
  return useQuery({
    queryKey: [...accessKeys.project(projectId), "grants", identityId, extra],
    staleTime: 0,
    meta: { errorShownInPlace: true },
    queryFn: async () => {
      const [scope, memberships, read] = await Promise.all([
        queryClient.fetchQuery(previewDataQueries.scope(projectId)),
        queryClient.fetchQuery({ ...accessQueries.identities(projectId), staleTime: 0 }),
        readPrivileges(
          () => queryClient.fetchQuery({ ...accessQueries.privileges(projectId, identityId), staleTime: 0 }),
          (id) => queryClient.fetchQuery({ ...accessQueries.privilege(projectId, id), staleTime: 0 }),
        ),
      ]);
      const membership = memberships.find((m) => m.identityId === identityId);
      if (!membership) throw new Error("The identity is not a member of this project any more");
      const slugs = [...new Set([...membership.roles.map(heldRoleSlug), ...extra])];
      const roles = await Promise.all(
        slugs.map((slug) => queryClient.fetchQuery(previewDataQueries.role(projectId, slug))),
      );
      const member: ProjectMember = {
        kind: "identity",
        id: identityId,
        name: membership.identity.name,
        roles: membership.roles,
        privileges: read.privileges.map((privilege) => ({
          id: privilege.id,
          slug: privilege.slug,
          isTemporary: privilege.isTemporary,
          temporaryAccessEndTime: privilege.temporaryAccessEndTime ?? null,
          permissions: privilege.permissions as ProjectRule[],
        })),
      };
      const rules = new Map<string, RoleRules>(
        roles.map((role) => [role.slug, { name: role.name, rules: role.permissions as ProjectRule[] }]),
      );
      // Where the server gave no way to read the privileges, its roles alone are counted (and said so).
      return { scope, member, rules, rolesOnly: read.rolesOnly };
    },
  });
}
