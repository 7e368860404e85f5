import type { QueryClient } from "@tanstack/react-query";
import type { LoaderFunctionArgs, RouteObject } from "react-router";
import { lazyRouteError } from "@/components/errors/lazy-route-error";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";

/**
 * The roles pages of a project, below `/projects/:projectId`. Pages and queries are imported on
 * demand: none of them is part of the sign-in page's download.
 */
const queries = async () => (await import("./queries")).roleQueries;
// The permission model (CASL) comes with it: on demand too, as on the access page.
const abilityQuery = async () => (await import("@/hooks/use-project-ability")).projectAbilityQuery;

function requireParams({ params }: LoaderFunctionArgs) {
  if (!params.projectId || !params.roleSlug) throw new Response("Not found", { status: 404 });
  return { projectId: params.projectId, roleSlug: params.roleSlug };
}

export function roleRoutes(queryClient: QueryClient): RouteObject {
  return {
    path: paths.project.roles.segment,
    handle: {
      crumb: ({ projectId = "" }) => ({ label: "Roles", to: paths.project.roles.href(projectId) }),
    } satisfies RouteHandle,
    lazy: { ErrorBoundary: lazyRouteError },
    children: [
      {
        index: true,
        lazy: { Component: async () => (await import("./components/roles-page")).RolesPage },
        // Not awaited: the header renders at once and the tables show a skeleton until the list arrives.
        loader: async ({ params }) => {
          const projectId = params.projectId ?? "";
          const [roleQueries, projectAbilityQuery] = await Promise.all([queries(), abilityQuery()]);
          void queryClient.prefetchQuery(projectAbilityQuery(projectId));
          void queryClient.prefetchQuery(roleQueries.list(projectId));
          return null;
        },
      },
      {
        path: ":roleSlug",
        lazy: {
          Component: async () => (await import("./components/role-page")).RolePage,
          ErrorBoundary: lazyRouteError,
          handle: async () => {
            const { RoleCrumb } = await import("./components/role-crumb");
            return {
              crumb: ({ projectId = "", roleSlug = "" }) => ({
                label: <RoleCrumb projectId={projectId} roleSlug={roleSlug} />,
                to: paths.projectRole.href(projectId, roleSlug),
              }),
            } satisfies RouteHandle;
          },
        },
        // Awaited: the role is the page's subject, and a 404 should show the not-found page.
        loader: async (args) => {
          const { projectId, roleSlug } = requireParams(args);
          const [roleQueries, projectAbilityQuery] = await Promise.all([queries(), abilityQuery()]);
          void queryClient.prefetchQuery(projectAbilityQuery(projectId));
          await queryClient.ensureQueryData(roleQueries.detail(projectId, roleSlug));
          return null;
        },
      },
    ],
  };
}
