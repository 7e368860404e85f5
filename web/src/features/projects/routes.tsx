import type { QueryClient } from "@tanstack/react-query";
import type { LoaderFunctionArgs, RouteObject } from "react-router";
import { lazyRouteError } from "@/components/errors/lazy-route-error";
import { type ProjectSection, paths } from "@/config/paths";
import { accessRoute } from "@/features/access/routes";
import { integrationsRoute } from "@/features/integrations/routes";
import { roleRoutes } from "@/features/roles/routes";
import { secretsOverviewRoute, secretsRoute } from "@/features/secrets/routes";
import { secretHistoryRoute } from "@/features/secret-history/routes";
import { secretImportsRoute } from "@/features/secret-imports/routes";
import type { RouteHandle } from "@/lib/route-handle";
import type { PlannedPageKey } from "./planned-pages";

/** A planned page's placeholder, title and icon load with the page, not with the console's first screen. */
function planned(key: PlannedPageKey) {
  return async () => (await import("./planned-pages")).plannedPageRoute(key);
}

const sections = Object.keys(paths.project) as ProjectSection[];

/** Project sections that are built; the others show their planned page. */
const builtSections: Partial<Record<ProjectSection, (queryClient: QueryClient) => RouteObject>> = {
  secrets: secretsRoute,
  secretsOverview: secretsOverviewRoute,
  roles: roleRoutes,
  access: accessRoute,
  secretImports: secretImportsRoute,
  secretHistory: secretHistoryRoute,
  integrations: integrationsRoute,
};

/** The loaders' queries are imported on demand, like the pages: none is part of the sign-in download. */
const queries = async () => (await import("./queries")).projectQueries;

function requireProjectId({ params }: LoaderFunctionArgs): string {
  if (!params.projectId) throw new Response("Not found", { status: 404 });
  return params.projectId;
}

export function projectRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.projects.path,
      lazy: { ErrorBoundary: lazyRouteError },
      handle: { crumb: () => ({ label: "Projects", to: paths.projects.href() }) } satisfies RouteHandle,
      children: [
        {
          index: true,
          lazy: { Component: async () => (await import("./components/projects-page")).ProjectsPage },
          // Not awaited: the header renders at once and the table shows a skeleton until the list arrives.
          loader: async () => {
            void queryClient.prefetchQuery((await queries()).list());
            return null;
          },
        },
        {
          path: paths.projectHome.path,
          lazy: {
            handle: async () => {
              const { ProjectCrumb } = await import("./components/project-crumb");
              return {
                crumb: ({ projectId = "" }) => ({
                  label: <ProjectCrumb projectId={projectId} />,
                  to: paths.projectHome.href(projectId),
                }),
              } satisfies RouteHandle;
            },
          },
          children: [
            {
              index: true,
              lazy: { Component: async () => (await import("./components/project-overview")).ProjectOverview },
              // Awaited: the project is the page's subject, and a 404 should show the not-found page.
              // The caller's permissions come in parallel (a failure there only leaves the server to judge).
              loader: async (args) => {
                const projectId = requireProjectId(args);
                const [projectQueries, { projectAbilityQuery }] = await Promise.all([
                  queries(),
                  import("@/hooks/use-project-ability"),
                ]);
                await Promise.all([
                  queryClient.ensureQueryData(projectQueries.detail(projectId)),
                  queryClient.prefetchQuery(projectAbilityQuery(projectId)),
                ]);
                return null;
              },
            },
            ...sections.map(
              (section) =>
                builtSections[section]?.(queryClient) ?? {
                  path: paths.project[section].segment,
                  lazy: planned(section),
                },
            ),
          ],
        },
      ],
    },
  ];
}
