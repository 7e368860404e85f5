import { endpoints, type PermissionRule } from "@keyhold/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "@/lib/api-client";

/** The actions a server knows, per subject. */
export type ServerActions = Readonly<Record<string, readonly string[]>>;

/**
 * What a server knows, read off its built-in admin role, which holds every subject and action
 * the server has: older servers know fewer (an October 2024 server has no "describe" or "read
 * value" on secrets, and refuses a rule that names them).
 */
export function serverActionsOf(adminRules: readonly PermissionRule[]): ServerActions {
  const known: Record<string, string[]> = {};
  for (const rule of adminRules) {
    if (rule.inverted) continue;
    const actions = (known[rule.subject] ??= []);
    for (const action of [rule.action].flat()) if (!actions.includes(action)) actions.push(action);
  }
  return known;
}

export const serverActionsQuery = (projectId: string) =>
  queryOptions({
    queryKey: ["server-actions", projectId] as const,
    queryFn: async ({ signal }) => {
      const params = { projectId, roleSlug: "admin" };
      const { role } = await call(endpoints["projectRoles.getBySlug"], { params }, { signal });
      return serverActionsOf(role.permissions);
    },
    // What a server knows changes only when it is upgraded.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/**
 * The subjects and actions the permission builder offers in a project: the server's own, or,
 * while they load or when the admin role cannot be read, the contract's whole table (the server
 * then has the last word, as always).
 */
export function useServerActions(projectId: string): ServerActions | undefined {
  return useQuery(serverActionsQuery(projectId)).data;
}
