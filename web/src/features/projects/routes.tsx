import { FolderKanban, Import, KeyRound, Plug, ShieldCheck, UsersRound } from "lucide-react";
import { type RouteObject, redirect } from "react-router";
import { RouteError } from "@/components/errors/route-error";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";
import { NotAvailablePage } from "./components/not-available-page";

const projectPages = [
  {
    page: paths.project.secrets,
    title: "Secrets",
    icon: KeyRound,
    purpose: "Browse and edit a project's secrets by environment and folder.",
  },
  {
    page: paths.project.secretImports,
    title: "Secret imports",
    icon: Import,
    purpose: "Pull secrets from other environments and folders into this one, in order of precedence.",
  },
  {
    page: paths.project.roles,
    title: "Roles",
    icon: ShieldCheck,
    purpose: "Define project roles and the permissions each one grants.",
  },
  {
    page: paths.project.access,
    title: "Access",
    icon: UsersRound,
    purpose: "Decide which identities can reach this project, with which roles and extra privileges.",
  },
  {
    page: paths.project.integrations,
    title: "Integrations",
    icon: Plug,
    purpose: "Sync this project's secrets to other platforms.",
  },
] as const;

export function projectRoutes(): RouteObject[] {
  return [
    {
      path: paths.projects.path,
      ErrorBoundary: RouteError,
      handle: { crumb: () => ({ label: "Projects", to: paths.projects.href() }) } satisfies RouteHandle,
      children: [
        {
          index: true,
          element: (
            <NotAvailablePage
              title="Projects"
              icon={FolderKanban}
              purpose="Projects hold secrets for each environment, with their own roles, access and integrations."
            />
          ),
        },
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
            ...projectPages.map(({ page, title, icon, purpose }) => ({
              path: page.segment,
              handle: {
                crumb: ({ projectId = "" }) => ({ label: title, to: page.href(projectId) }),
              } satisfies RouteHandle,
              element: <NotAvailablePage title={title} icon={icon} purpose={purpose} />,
            })),
          ],
        },
      ],
    },
  ];
}
