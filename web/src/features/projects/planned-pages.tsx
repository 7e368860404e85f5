import { Columns3, History, Import, KeyRound, type LucideIcon, Plug, ShieldCheck, UsersRound } from "lucide-react";
import type { RouteObject } from "react-router";
import { type ProjectSection, paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";
import { NotAvailablePage } from "./components/not-available-page";

export type PlannedPageKey = ProjectSection;

interface PlannedPage {
  title: string;
  icon: LucideIcon;
  /** What the page will do, so the placeholder is still informative. */
  purpose: string;
}

const plannedPages: Record<PlannedPageKey, PlannedPage> = {
  secrets: {
    title: "Secrets",
    icon: KeyRound,
    purpose: "Browse and edit a project's secrets by environment and folder.",
  },
  secretsOverview: {
    title: "Secrets overview",
    icon: Columns3,
    purpose: "Compare a folder's keys across the project's environments.",
  },
  secretImports: {
    title: "Secret imports",
    icon: Import,
    purpose: "Pull secrets from other environments and folders into this one, in order of precedence.",
  },
  secretHistory: {
    title: "History",
    icon: History,
    purpose: "See what changed in a folder, and put it back as it was at an earlier point.",
  },
  roles: {
    title: "Roles",
    icon: ShieldCheck,
    purpose: "Define project roles and the permissions each one grants.",
  },
  access: {
    title: "Access",
    icon: UsersRound,
    purpose: "Decide which identities can reach this project, with which roles and extra privileges.",
  },
  integrations: {
    title: "Integrations",
    icon: Plug,
    purpose: "Sync this project's secrets to other platforms.",
  },
};

/** The lazily loaded part of a planned page's route: its placeholder and, inside a project, its crumb. */
export function plannedPageRoute(key: PlannedPageKey): Pick<RouteObject, "element" | "handle"> {
  const { title, icon, purpose } = plannedPages[key];
  const element = <NotAvailablePage title={title} icon={icon} purpose={purpose} />;
  const page = paths.project[key];
  return {
    element,
    handle: { crumb: ({ projectId = "" }) => ({ label: title, to: page.href(projectId) }) } satisfies RouteHandle,
  };
}
