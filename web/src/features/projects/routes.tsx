import { type RouteObject, redirect } from "react-router";
import { lazyRouteError } from "@/components/errors/lazy-route-error";
import { type ProjectSection, paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";
import type { PlannedPageKey } from "./planned-pages";

/** A planned page's placeholder, title and icon load with the page, not with the console's first screen. */
function planned(key: PlannedPageKey) {
  return async () => (await import("./planned-pages")).plannedPageRoute(key);
}

const sections = Object.keys(paths.project) as ProjectSection[];

export function projectRoutes(): RouteObject[] {
  return [
    {
      path: paths.projects.path,
      lazy: { ErrorBoundary: lazyRouteError },
      handle: { crumb: () => ({ label: "Projects", to: paths.projects.href() }) } satisfies RouteHandle,
      children: [
        { index: true, lazy: planned("projects") },
        {
          path: paths.projectHome.path,
          handle: {
            crumb: ({ projectId = "" }) => ({
              label: <span className="font-mono text-[13px]">{projectId}</span>,
              to: paths.project.secrets.href(projectId),
            }),
          } satisfies RouteHandle,
          children: [
            { index: true, loader: ({ params }) => redirect(paths.project.secrets.href(params.projectId ?? "")) },
            ...sections.map((section) => ({ path: paths.project[section].segment, lazy: planned(section) })),
          ],
        },
      ],
    },
  ];
}
